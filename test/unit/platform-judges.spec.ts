import { expect, test } from '@playwright/test';
import { platformJudges } from '../../run/platform-judges';
import type { Profile } from '../../profile/profile-schema';

const on = (url: string, extra: Partial<Profile> = {}) => ({ platform: { url }, ...extra }) as unknown as Profile;

test('the platform is judged by a partner whose set-up works, then by reach, then by name; each platform by its own', () => {
  const partners = [
    { name: 'aardvark', profile: on('http://127.0.0.1:4401', { dataApi: { baseUrl: 'http://127.0.0.1:4401', token: 't' } }) },
    { name: 'zebra', profile: on('http://localhost:4401') },
    { name: 'yak', profile: on('https://other.example') },
  ];
  expect(platformJudges(partners)).toEqual({ aardvark: 'aardvark', zebra: 'aardvark', yak: 'yak' });
  // A refused set-up judges for no one, whatever its reach, while another can.
  expect(platformJudges(partners, new Set(['aardvark']))).toEqual({ aardvark: 'zebra', zebra: 'zebra', yak: 'yak' });
  // Where no partner's set-up works, the judge is one whose set-up failed: the preflight stops such a run.
  expect(platformJudges(partners, new Set(['aardvark', 'zebra']))).toMatchObject({ aardvark: 'aardvark', zebra: 'aardvark' });
});
