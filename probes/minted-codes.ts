import { setTimeout as sleep } from 'node:timers/promises';
import { bodyPreview, isObject, parseJson, type Exchange } from '../checks/evidence';
import { defaultMaxRetryAfterMs, retryAfterMs, type HttpClient } from '../client/http';
import { SetupError } from '../client/setup-error';
import { mintedCodesIn } from '../redaction/secrets';
import type { CodeReceived, CodeSource } from './code-source';

/**
 * The oldest a minted code may be when it is handed out. Libraries issue codes that live from 60 s
 * (oidc-provider's default) to 10 minutes (RFC 6749 §4.1.2's maximum); half the shortest leaves the
 * exchange room to spare.
 */
export const codeMaxAgeMs = 30_000;

/**
 * The mint hook is a test aid, not what is certified: a request that fails for a moment (a 5xx or a 429, no answer
 * in time, a connection reset, as a partner's hook does on a loaded 2-core machine) is asked again after each
 * pause, then the run gives up on its codes. A "Retry-After" up to `longestRetryAfterMs` is waited out instead,
 * when longer; a longer one is not waited for.
 */
export const mintRetry = { pausesMs: [500, 1500], longestRetryAfterMs: defaultMaxRetryAfterMs } as const;

/** Why a mint request failed for a moment, to be asked again; undefined for an answer that will not change (a 4xx, no code). */
export function transientFailure({ response, failure }: Exchange): string | undefined {
  if (failure?.kind === 'timeout') return 'timed out';
  if (failure?.kind === 'connection-reset') return 'connection reset';
  if (failure || !response) return undefined;
  return response.status >= 500 || response.status === 429 ? `answered ${response.status}` : undefined;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
const listed = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The pause before asking again, or why not to: the server asked for a longer one than the run waits. */
function pauseBefore(retry: number, { response }: Exchange): { ms: number } | { refused: string } {
  const scheduled = mintRetry.pausesMs[retry]!;
  const header = response?.headers['retry-after'];
  const asked = header === undefined ? undefined : retryAfterMs(header);
  if (asked === undefined) return { ms: scheduled };
  if (asked > mintRetry.longestRetryAfterMs)
    return {
      refused: `asked to be asked again after ${seconds(asked)} ("Retry-After: ${header}"), longer than the ${seconds(mintRetry.longestRetryAfterMs)} a run waits`,
    };
  return { ms: Math.max(scheduled, asked) };
}

/**
 * A mint hook's answer as an error quotes it: its body's start (a preview cuts no code to a fragment: every code the
 * answer carried is already known to the run's masking, `received`), and a redirect's target without its query.
 */
function answerQuoted(body: string, location: string | undefined): string {
  const target = location && URL.canParse(location) ? ` (a redirect to ${new URL(location).origin}${new URL(location).pathname}, not followed)` : '';
  return `${bodyPreview(body)}${target}`;
}

/**
 * One code from the hook, asked again after a transient failure as `mintRetry` says; each retry's reason goes to
 * `retried`. Every code each answer carries, whatever its status, goes to `received` the moment it arrives: a
 * hook that answers 500 with the code it minted, or redirects with it, has handed the run a live code too.
 */
export async function mintOnce(
  mintUrl: string,
  http: HttpClient,
  {
    retried = () => {},
    pause = sleep,
    received = () => {},
  }: { retried?: (reason: string) => void; pause?: (ms: number) => Promise<unknown>; received?: CodeReceived } = {},
): Promise<string> {
  const carried: string[] = [];
  const ask = async () => {
    const exchange = await http.send({ method: 'POST', url: mintUrl, headers: { accept: 'application/json' } });
    const codes = exchange.response ? mintedCodesIn(exchange.response) : [];
    carried.push(...codes);
    for (const code of codes) received(code);
    return exchange;
  };
  const paused: number[] = [];
  let exchange = await ask();
  let refused = '';
  for (let reason = transientFailure(exchange); reason !== undefined && paused.length < mintRetry.pausesMs.length; reason = transientFailure(exchange)) {
    const next = pauseBefore(paused.length, exchange);
    if ('refused' in next) {
      refused = `; it ${next.refused}`;
      break;
    }
    retried(reason);
    await pause(next.ms);
    paused.push(next.ms);
    exchange = await ask();
  }
  const { response, failure } = exchange;
  const times = paused.length > 0 ? `, ${paused.length + 1} times (asked again after ${listed(paused.map(seconds))})` : '';
  const problem = (what: string) => new SetupError('code-source', `"codes.mintUrl" ${what}${times}${refused}; it should answer 200 with {"code": "…"}`);
  if (failure) throw problem(`gave no usable answer (${failure.message})`);
  const quoted = () => answerQuoted(response?.body ?? '', response?.headers.location);
  if (!response || response.status < 200 || response.status > 299) throw problem(`answered ${response?.status} ${quoted()}`);
  const json = parseJson(response.body);
  const code = json.ok && isObject(json.value) ? json.value.code : undefined;
  if (typeof code !== 'string' || code === '') throw problem(`answered ${quoted()} without a "code" string`);
  return code;
}

/**
 * `"codes": {"mintUrl": …}`: a POST with no body answers `{"code": "…"}`. Once the hook has given a code, one
 * code is always minted ahead, so a test does not wait a round trip to the partner before its first call (a
 * worker ends with one code unused); a hook that fails is not asked twice as often for it. A code that waited
 * longer than `maxAgeMs` (a worker busy with browser tests) is dropped for one minted just in time, so no code
 * is spent after a short lifetime ran out.
 */
export function mintedCodes(
  mintUrl: string,
  http: HttpClient,
  {
    maxAgeMs = codeMaxAgeMs,
    now = Date.now,
    received = () => {},
    pause = sleep,
  }: { maxAgeMs?: number; now?: () => number; received?: CodeReceived; pause?: (ms: number) => Promise<unknown> } = {},
): CodeSource {
  const retries: string[] = [];
  // Aged from when the mint was first asked for: the partner issued the code no earlier.
  const mint = async () => {
    const mintedAt = now();
    const code = await mintOnce(mintUrl, http, { retried: (reason) => retries.push(reason), pause, received });
    return { code, mintedAt };
  };
  let ahead: Promise<{ code: string; mintedAt: number }> | undefined;
  return {
    takeRetries: () => retries.splice(0),
    async next() {
      const waiting = ahead ?? mint();
      ahead = undefined;
      const { code, mintedAt } = await waiting;
      if (!ahead) {
        ahead = mint();
        ahead.catch(() => {}); // a failed mint surfaces when its code is asked for, not as an unhandled rejection
      }
      return now() - mintedAt <= maxAgeMs ? code : (await mint()).code;
    },
  };
}
