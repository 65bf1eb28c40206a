/**
 * Why the harness could not set a check up: a problem of the set-up, reported as such, never as a finding about
 * the partner. Callers switch on `code`, never on the words of `message` (which is for people, and may change).
 *
 * - `code-source`: no authorization code came ("codes.mintUrl", "codes.browser", "codes.static").
 * - `platform`: the platform could not be set up (no "platform" block, the partner's configuration refused).
 * - `data-api`: the data API refused a request or broke its paging (`params.status`, and its own `params.apiCode`).
 */
export type SetupErrorCode = 'code-source' | 'platform' | 'data-api';

export type SetupErrorParams = Readonly<Record<string, string | number | boolean>>;

export class SetupError extends Error {
  override name = 'SetupError';
  /** What a browser showed when a "codes.browser" login went wrong. */
  screenshot?: Buffer | undefined;

  constructor(
    readonly code: SetupErrorCode,
    message: string,
    readonly params: SetupErrorParams = {},
  ) {
    super(message);
  }
}

/** Whether `error` is a set-up problem, of `code` when one is given. */
export const isSetupError = (error: unknown, code?: SetupErrorCode): error is SetupError =>
  error instanceof SetupError && (code === undefined || error.code === code);
