import { pageUrl } from '../client/data-api';
import { profileClient, type HttpClient, type HttpRequest } from '../client/http';
import { bodyPreview } from '../checks/evidence';
import { mockLinkUrl } from '../profile/platform-urls';
import type { Profile } from '../profile/profile-schema';

/**
 * Whether this profile's own credentials for the platform work: its `platform.apiKey` and its `dataApi.token`.
 * A partner whose set-up fails cannot judge the platform for the others on it (issue 40): its failure is its
 * own, never the platform's. Each credential is asked for something that needs it and nothing else: an empty
 * mock-link request, which a conformant platform refuses as invalid, not as unauthorized, when the key is
 * right; and a one-item page of organizations. Only a refusal for want of credentials is a problem: a
 * platform that reads the body before the key says nothing here, and its rules judge it.
 */

const unauthorized = (status: number | undefined, stated?: number) => status !== undefined && (stated === undefined ? [401, 403] : [stated]).includes(status);

async function refused(http: HttpClient, request: HttpRequest, stated?: number): Promise<string | undefined> {
  const { response } = await http.send(request);
  return response && unauthorized(response.status, stated) ? `${response.status} ${bodyPreview(response.body)}` : undefined;
}

/** The platform credentials of `profile` that the platform refuses, one line each naming the field and the fix. */
export async function platformSetupProblems(profile: Profile): Promise<string[]> {
  const { platform, dataApi } = profile;
  const http = profileClient(profile);
  const checks: Promise<string | undefined>[] = [];
  if (platform)
    checks.push(
      refused(
        http,
        {
          method: 'POST',
          url: mockLinkUrl(platform.url),
          headers: { 'api-key': platform.apiKey, 'content-type': 'application/json', accept: 'application/json' },
          body: '{}',
        },
        platform.mockLink?.unauthorizedStatus,
      ).then(
        (answer) =>
          answer &&
          `"platform.apiKey": the platform refused it (${answer}); correct "platform.apiKey" (the platform team issues it for "${platform.partnerName}")`,
      ),
    );
  if (dataApi)
    checks.push(
      refused(http, {
        method: 'GET',
        url: pageUrl(dataApi.baseUrl, 'organizations', { limit: 1 }),
        headers: { accept: 'application/json', authorization: `Bearer ${dataApi.token}` },
      }).then((answer) => answer && `"dataApi.token": the data API refused it (${answer}); correct "dataApi.token"`),
    );
  try {
    return (await Promise.all(checks)).filter((problem): problem is string => typeof problem === 'string');
  } finally {
    await http.close?.();
  }
}
