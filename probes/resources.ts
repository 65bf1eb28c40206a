import { randomUUID } from 'node:crypto';
import { accountInfoFieldRules } from '../checks/account-info';
import { jsonObject, jsonResponse, type Exchange, type JsonResponse } from '../checks/evidence';
import { evaluate, evaluateAll, type Rule } from '../checks/finding';
import { fundingSourceRules } from '../checks/funding-sources';
import type { PayloadRule } from '../checks/payload';
import {
  accountInfoConsistent,
  accountInfoResource,
  bodyRules,
  checkPayload,
  fundingSourceIdsStable,
  fundingSourcesResource,
  isRefusal,
  type TwoCalls,
} from '../checks/resources';
import { checkTransport } from '../checks/transport';
import type { Profile } from '../profile/profile-schema';
import { after, stopped, withNeeds, type Judgement, type Probe, type ProbeDetails } from './probe';
import { completed } from './executor';
import { freshToken, profileHas } from './needs';
import { resourceRequest } from '../client/requests';

/** The probes of the two Bearer-protected partner endpoints: account information and funding sources. */

interface Resource {
  rules: typeof accountInfoResource;
  fieldRules: readonly PayloadRule[];
  consistency: Rule<TwoCalls>;
  url: (profile: Profile) => string | undefined;
  endpoint: 'account-info' | 'funding-sources';
  urlField: string;
  titles: { payload: string; unauthorized: string };
  profileNeeds?: ProbeDetails['profileNeeds'];
}

const accountInfo: Resource = {
  rules: accountInfoResource,
  fieldRules: accountInfoFieldRules,
  consistency: accountInfoConsistent,
  url: (profile) => profile.accountInfoUrl,
  endpoint: 'account-info',
  urlField: 'accountInfoUrl',
  titles: {
    payload: 'account information passes every field rule of spec §2.3, alike on a second call',
    unauthorized: 'account information refuses a missing or invalid token with 401',
  },
};

const fundingSources: Resource = {
  rules: fundingSourcesResource,
  fieldRules: fundingSourceRules,
  consistency: fundingSourceIdsStable,
  url: (profile) => profile.fundingSourcesUrl,
  endpoint: 'funding-sources',
  urlField: 'fundingSourcesUrl',
  titles: {
    payload: 'funding sources pass every field rule of spec §2.4, with ids stable across calls',
    unauthorized: 'funding sources refuse a missing or invalid token with 401',
  },
  profileNeeds: [profileHas('fundingSourcesUrl', 'the platform never reads funding sources')],
};

/**
 * Fetches the payload twice with one token, at once: every rule runs on the first answer, and the
 * two answers must agree (same ids). One token, one round trip, every rule.
 */
function payloadProbe(resource: Resource): Probe {
  const { rules, fieldRules, consistency, urlField } = resource;
  const judged = [rules.status, rules.contentType, ...bodyRules(rules), rules.nullValues, ...fieldRules, consistency];
  return withNeeds({
    kind: 'http',
    id: `${resource.endpoint}/payload`,
    area: resource.endpoint,
    title: resource.titles.payload,
    rules: [...rules.transport, ...judged],
    codes: 1,
    ...(resource.profileNeeds ? { profileNeeds: resource.profileNeeds } : {}),
    needs: { fresh: freshToken() },
    run: async (ctx, { fresh: { token } }, http) => {
      const url = resource.url(ctx.profile)!;
      const [first, second] = await Promise.all([http.send(resourceRequest(url, token)), http.send(resourceRequest(url, token))]);
      const transport = checkTransport(rules.transport, first, `no usable response from "${urlField}"`);
      if (!transport.usable) return stopped({ blockedBy: transport.blocker }, transport.findings);
      const payloadCtx = { now: ctx.now(), collectMissingAccountInfo: ctx.profile.collectMissingAccountInfo };
      const one = checkPayload(rules, fieldRules, jsonResponse(first.response!), payloadCtx);
      return after([...transport.findings, ...one.findings], compare(consistency, one.payload, second, urlField));
    },
  });
}

function compare(consistency: Rule<TwoCalls>, first: TwoCalls['first'] | undefined, second: Exchange, urlField: string): Judgement {
  if (!first) return stopped({ notApplicable: 'the first answer has no JSON object to compare' });
  const payload = second.response && jsonObject(jsonResponse(second.response));
  if (second.failure || !payload)
    return stopped({
      notApplicable: `the second call to "${urlField}" gave no JSON object (${second.failure?.message ?? `status ${second.response?.status}`})`,
    });
  return evaluate(consistency, { first, second: payload }, undefined);
}

/** One of the two refusals: the request's own rule, then how it was refused, judged on a refusal only. */
function refusal(rules: Resource['rules'], rule: Rule<JsonResponse>, answer: Exchange, urlField: string): Judgement {
  const transport = checkTransport(rules.transport, answer, `no usable response from "${urlField}"`);
  if (!transport.usable) return stopped({ blockedBy: transport.blocker }, transport.findings);
  const response = jsonResponse(answer.response!);
  // Nothing served at the URL refuses nothing: one failure, the status rule's, on the request with a token.
  if (response.status === 404)
    return stopped({ blockedBy: { rule: rules.status.id, reason: 'it answers 404: nothing is served at this URL' } }, transport.findings);
  const refused = [...transport.findings, ...evaluate(rule, response, undefined)];
  // How a refusal is made is judged on a refusal only: an answer with the resource is one failure, the MUST's.
  if (!isRefusal(response.status))
    return stopped({ blockedBy: { rule: rule.id, reason: `the request was answered ${response.status}, not refused` } }, refused);
  return [...refused, ...evaluateAll([rules.refusalStatus, rules.wwwAuthenticate], response, undefined)];
}

/** Requests without a token and with a made-up one, at once: both must be refused, with 401. */
function unauthorizedProbe(resource: Resource): Probe {
  const { rules, urlField } = resource;
  return {
    kind: 'http',
    id: `${resource.endpoint}/unauthorized`,
    area: resource.endpoint,
    title: resource.titles.unauthorized,
    rules: [rules.missingToken, rules.invalidToken, rules.refusalStatus, rules.wwwAuthenticate],
    alsoJudges: rules.transport,
    codes: 0,
    ...(resource.profileNeeds ? { profileNeeds: resource.profileNeeds } : {}),
    run: async (ctx, _met, http) => {
      const url = resource.url(ctx.profile)!;
      const cases = [
        { rule: rules.missingToken, request: resourceRequest(url) },
        { rule: rules.invalidToken, request: resourceRequest(url, `certify-invalid-${randomUUID()}`) },
      ];
      const answers = await Promise.all(cases.map(({ request }) => http.send(request)));
      // Each request speaks for its own rule and for how it was refused.
      return cases.flatMap(({ rule }, index) => completed([rule, rules.refusalStatus, rules.wwwAuthenticate], refusal(rules, rule, answers[index]!, urlField)));
    },
  };
}

export const accountInfoProbes: readonly Probe[] = [payloadProbe(accountInfo), unauthorizedProbe(accountInfo)];
export const fundingSourcesProbes: readonly Probe[] = [payloadProbe(fundingSources), unauthorizedProbe(fundingSources)];
