import { deleteAt } from '../checks/paths';
import { isObject, jsonObject } from '../checks/evidence';
import { issuedLink } from '../checks/mock-link';
import type { Payload } from '../checks/payload';
import { answer, type HttpClient } from '../client/http';
import { sampleAccountInfo } from '../checks/sample-account-info';
import { mockLinkBody, mockLinkRequest, type Platform, type PlatformContext } from './platform';

/** Creates a mock link for `accountInfo`; undefined (with the reason) when the platform issues none. */
async function createLink(http: HttpClient, platform: Platform, accountInfo: Payload): Promise<{ link: string } | { problem: string }> {
  const got = await answer(http, mockLinkRequest(platform, JSON.stringify(mockLinkBody(platform, accountInfo))));
  if ('problem' in got) return { problem: `the mock-link endpoint gave no answer (${got.problem}); see the mock-link results` };
  const link = got.response.status >= 200 && got.response.status < 300 ? issuedLink(got.response).link : undefined;
  if (link) return { link };
  return { problem: `the mock-link endpoint issued no link (${got.response.status} ${JSON.stringify(jsonObject(got.response))}); see the mock-link results` };
}

/**
 * A mock link for account information valid by every rule (checks/sample-account-info.ts) as `edit`
 * changes it, or why there is none: the platform's checks sign on with data of no partner's, so they judge
 * the platform alone.
 */
export async function linkFor(
  ctx: Pick<PlatformContext, 'platform'>,
  http: HttpClient,
  edit = (info: Payload) => info,
): Promise<{ link: string; sent: Payload } | { problem: string }> {
  const sent = edit(structuredClone(sampleAccountInfo));
  const link = await createLink(http, ctx.platform, sent);
  return 'problem' in link ? link : { ...link, sent };
}

export const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** What the app must show for this account information: the user's name and the company's. */
export function expectedTexts(accountInfo: Payload): string[] {
  const user = isObject(accountInfo.user) ? accountInfo.user : {};
  const company = isObject(accountInfo.company) ? accountInfo.company : {};
  const name = [text(user.firstName), text(user.lastName)].filter(Boolean).join(' ');
  return [name, text(company.name)].filter((value): value is string => Boolean(value));
}

/** A copy of the account information without the fields at `paths`. */
export function without(accountInfo: Payload, paths: readonly string[]): Payload {
  const copy = structuredClone(accountInfo);
  for (const path of paths) deleteAt(copy, path);
  return copy;
}

export function withCompanyName(accountInfo: Payload, name: string): Payload {
  const copy = structuredClone(accountInfo);
  if (isObject(copy.company)) copy.company.name = name;
  return copy;
}
