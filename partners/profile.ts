import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { z } from 'zod';

/**
 * A partner profile: `partners/<name>.json` (or `$PARTNERS_DIR/<name>.json`) becomes the Playwright
 * project `<name>`. The field names are fixed: certification teams script against them.
 */

type RawIssue = { input?: unknown; code?: string; expected?: string };

const describeValue = (value: unknown) => (Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value);

/** Error messages read after the quoted field name: `"tokenExchangeUrl" is missing; add …`. */
const fieldError = (fix: string) => (issue: RawIssue) => {
  if (issue.input === undefined) return `is missing; ${fix}`;
  if (issue.code === 'invalid_type') return `must be ${issue.expected} (it is ${describeValue(issue.input)}); ${fix}`;
  return undefined;
};

const httpUrl = (what: string) =>
  z
    .url({
      protocol: /^https?$/,
      error: (issue) =>
        fieldError(`add ${what}`)(issue) ??
        `is not an absolute http(s) URL (${JSON.stringify(issue.input)}); write it like "https://partner.example/oauth/token"`,
    })
    .meta({ description: what });

const optionalText = (what: string) =>
  z
    .string({ error: fieldError(`set ${what} as a string`) })
    .min(1, { error: 'is empty; remove the field or give it a value' })
    .optional()
    .meta({ description: what });

const browserStep = z.union(
  [
    z.strictObject({ goto: httpUrl('a page to open') }),
    z.strictObject({ fill: z.string().min(1).meta({ description: 'CSS selector' }), value: z.string() }),
    z.strictObject({ click: z.string().min(1).meta({ description: 'CSS selector' }) }),
  ],
  { error: 'must be {"goto": url}, {"fill": selector, "value": text} or {"click": selector}' },
);

const codeSources = ['mintUrl', 'static', 'browser'] as const;

const codesSchema = z
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

export const profileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    tokenExchangeUrl: httpUrl("the partner's token exchange URL (TokenExchangeUrl)"),
    accountInfoUrl: httpUrl("the partner's account information URL (AccountInfoUrl)"),
    fundingSourcesUrl: httpUrl("the partner's funding sources URL (FundingSourcesUrl), if the partner has one").optional(),
    clientId: optionalText('the client_id the platform sends, if predefined'),
    clientSecret: optionalText('the client_secret the platform sends, if predefined'),
    scope: optionalText('the scope the platform sends, if predefined'),
    collectMissingAccountInfo: z
      .boolean({ error: fieldError('write true or false') })
      .default(false)
      .meta({ description: 'CollectMissingAccountInfo: users type in missing Yes* fields instead of seeing an error' }),
    codes: codesSchema,
    requestTimeoutMs: z
      .number({ error: fieldError('give milliseconds as a number') })
      .int()
      .min(100)
      .max(120_000)
      .default(10_000)
      .meta({ description: 'deadline for each call to the partner, headers and body' }),
  })
  .meta({ title: 'Partner certification profile' });

export type Profile = z.output<typeof profileSchema>;
export type BrowserCodes = NonNullable<Profile['codes']['browser']>;

export interface LoadedProfile {
  /** The Playwright project name: the file name without `.json`. */
  name: string;
  file: string;
  profile: Profile;
}

const envReference = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;
const reservedNames = new Set(['unit', 'self-test']);
const profileName = /^[a-z0-9][a-z0-9-]*$/;
const schemaHint = 'partners/profile.schema.json';

const display = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative === '' || relative.startsWith('..') ? file : relative;
};
const fieldName = (at: PropertyKey[]) => at.map(String).join('.');

/** Replaces every `env:NAME` string with the value of NAME; an unset variable is an error naming it. */
function resolveEnv(value: unknown, at: string[], env: NodeJS.ProcessEnv, errors: string[]): unknown {
  if (typeof value === 'string') {
    const name = envReference.exec(value)?.[1];
    if (name === undefined) return value;
    const resolved = env[name];
    if (resolved === undefined) errors.push(`"${at.join('.')}" reads env:${name}, which is not set; export ${name}=… or add it to .env`);
    return resolved;
  }
  if (Array.isArray(value)) return value.map((item, i) => resolveEnv(item, [...at, String(i)], env, errors));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveEnv(item, [...at, key], env, errors)]));
  }
  return value;
}

function formatIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${fieldName([...issue.path, key])}"`).join(', ');
    return `unknown field ${keys}; check the spelling against ${schemaHint}`;
  }
  return issue.path.length === 0 ? `the profile ${issue.message}` : `"${fieldName(issue.path)}" ${issue.message}`;
}

/** Loads one profile file. Each error is one line naming the file, the field and the fix. */
export function loadProfile(file: string, env: NodeJS.ProcessEnv = process.env): { profile?: LoadedProfile; errors: string[] } {
  const name = path.basename(file, '.json');
  const fail = (...problems: string[]) => ({ errors: problems.map((problem) => `${display(file)}: ${problem}`) });
  if (!profileName.test(name)) return fail(`the file name must be lower-case letters, digits and dashes, since it becomes the project name`);
  if (reservedNames.has(name)) return fail(`"${name}" is the name of the harness's own test project; rename the file`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix the syntax`);
  }
  const envErrors: string[] = [];
  const resolved = resolveEnv(raw, [], env, envErrors);
  if (envErrors.length > 0) return fail(...envErrors);
  const parsed = profileSchema.safeParse(resolved);
  if (!parsed.success) return fail(...parsed.error.issues.map(formatIssue));
  return { profile: { name, file, profile: parsed.data }, errors: [] };
}

const jsonFiles = (dir: string) =>
  readdirSync(dir)
    .filter((entry) => entry.endsWith('.json') && !entry.endsWith('.schema.json'))
    .sort()
    .map((entry) => path.join(dir, entry));

/** Every profile in `partners/` and in `$PARTNERS_DIR`. A `.env` file fills in variables that are not set. */
export function loadProfiles(
  partnersDir: string,
  { env = process.env, envFile = '.env' }: { env?: NodeJS.ProcessEnv; envFile?: string } = {},
): { profiles: LoadedProfile[]; errors: string[] } {
  loadDotenv({ quiet: true, path: envFile, processEnv: env });
  const dirs = [partnersDir];
  const errors: string[] = [];
  const extra = env.PARTNERS_DIR;
  if (extra) {
    try {
      readdirSync(extra);
      dirs.push(path.resolve(extra));
    } catch {
      errors.push(`PARTNERS_DIR=${extra}: no such folder; point it at the folder that holds the partner profiles`);
    }
  }
  const profiles: LoadedProfile[] = [];
  for (const file of dirs.flatMap(jsonFiles)) {
    const loaded = loadProfile(file, env);
    errors.push(...loaded.errors);
    if (!loaded.profile) continue;
    const twin = profiles.find((other) => other.name === loaded.profile!.name);
    if (twin) errors.push(`${display(file)}: the project name "${twin.name}" is taken by ${display(twin.file)}; rename one of them`);
    else profiles.push(loaded.profile);
  }
  return { profiles, errors };
}

/** partners/profile.schema.json: the zod schema as JSON Schema, where any string may be an `env:NAME` reference. */
export function profileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(profileSchema, { io: 'input', target: 'draft-2020-12' });
  return {
    $id: 'https://partner-certify.invalid/partners/profile.schema.json',
    ...(allowEnvReferences(schema) as Record<string, unknown>),
    description: 'A partner profile for partner-certify. Any string value may be written env:NAME to read it from the environment.',
  };
}

function allowEnvReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(allowEnvReferences);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => [key, allowEnvReferences(value)] as const);
  const copy = Object.fromEntries(entries) as Record<string, unknown>;
  const { description, ...rest } = copy;
  // A bare {"type": "string"} already accepts "env:NAME"; only constrained strings need the alternative.
  if (copy.type !== 'string' || Object.keys(rest).length === 1) return copy;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'string', pattern: envReference.source }] };
}
