import { z } from 'zod';

/** The field types a profile is made of, each with an error that names the fix (profile/profile-schema.ts). */

export type RawIssue = { input?: unknown; code?: string; expected?: string };

export const describeValue = (value: unknown) => (Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value);

/** Error messages read after the quoted field name: `"tokenExchangeUrl" is missing; add …`. */
export const fieldError = (fix: string) => (issue: RawIssue) => {
  if (issue.input === undefined) return `is missing; ${fix}`;
  if (issue.code === 'invalid_type') return `must be ${issue.expected} (it is ${describeValue(issue.input)}); ${fix}`;
  return undefined;
};

export const httpUrl = (what: string) =>
  z
    .url({
      protocol: /^https?$/,
      error: (issue) =>
        fieldError(`add ${what}`)(issue) ??
        `is not an absolute http(s) URL (${JSON.stringify(issue.input)}); write it like "https://partner.example/oauth/token"`,
    })
    .meta({ description: what });

/** An http(s) origin alone: scheme, host and port. */
export const httpOrigin = (example: string) =>
  z
    .url({ protocol: /^https?$/, error: `must be an http(s) origin such as "${example}"` })
    .refine((url) => new URL(url).origin === url, { error: 'must be an origin only: scheme, host and port, no path' });

export const optionalText = (what: string) =>
  z
    .string({ error: fieldError(`set ${what} as a string`) })
    .min(1, { error: 'is empty; remove the field or give it a value' })
    .optional()
    .meta({ description: what });

export const browserStep = z.union(
  [
    z.strictObject({ goto: httpUrl('a page to open') }),
    z.strictObject({ fill: z.string().min(1).meta({ description: 'CSS selector' }), value: z.string() }),
    z.strictObject({ click: z.string().min(1).meta({ description: 'CSS selector' }) }),
  ],
  { error: 'must be {"goto": url}, {"fill": selector, "value": text} or {"click": selector}' },
);

const codeSources = ['mintUrl', 'static', 'browser'] as const;

export const codesSchema = z
  .strictObject(
    {
      mintUrl: httpUrl('a test hook: a POST with no body answers {"code": "…"}').optional(),
      static: z
        .array(z.string().min(1, { error: 'is empty; give the code itself' }), { error: fieldError('give a list of codes') })
        .min(1, { error: 'is empty; give the one-time codes the partner handed over' })
        .optional()
        .meta({ description: 'one-time authorization codes handed over by the partner; each is used once' }),
      browser: z
        .strictObject({
          authUrl: httpUrl("the platform auth URL the partner's app sends the user to; the code is captured there"),
          steps: z.array(browserStep).min(1, { error: 'is empty; list the goto/fill/click steps that log in' }),
          timeoutMs: z.number().int().positive().default(30_000).meta({ description: 'time allowed for one login' }),
        })
        .optional()
        .meta({ description: "log in to the partner's own app in Chromium and capture the code" }),
    },
    { error: fieldError('say where fresh authorization codes come from: {"mintUrl": …}, {"static": […]} or {"browser": {…}}') },
  )
  .refine((codes) => codeSources.filter((source) => codes[source] !== undefined).length === 1, {
    error: 'needs exactly one of "mintUrl", "static" or "browser"',
  })
  .meta({ description: 'where the harness gets fresh one-time authorization codes' });

/** A Playwright locator a person can write: a CSS selector, or by role and accessible name, by text, or by test id. */
export const locatorSchema = z.union(
  [
    z.string().min(1),
    z.strictObject({ role: z.string().min(1), name: z.string().optional() }),
    z.strictObject({ text: z.string().min(1) }),
    z.strictObject({ testId: z.string().min(1) }),
  ],
  { error: 'must be a CSS selector, or {"role", "name"}, {"text"} or {"testId"}' },
);
export type LocatorSpec = z.output<typeof locatorSchema>;
