import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { z } from 'zod';
import { allRules } from '../checks/catalogue';
import type { Waiver } from '../checks/waivers';
import { profileSchema, type Profile } from '../shared/profile-schema';
import { waiversFileSchema } from '../shared/waiver-schema';

export interface LoadedProfile {
  /** The Playwright project name: the file name without `.json`. */
  name: string;
  file: string;
  profile: Profile;
  /** Every value read from an `env:` variable, wherever it sits (a key in a URL, a typed password): all secrets. */
  envValues: string[];
  /** `<name>.waivers.json` beside the profile, when there is one; its waivers, in the file's order. */
  waiversFile?: string;
  waivers: Waiver[];
}

const envReference = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;
// The harness's own projects, and the history's folder inside a moved report folder (reports/history.ts).
const reservedNames = new Set(['unit', 'self-test', 'history']);
const profileName = /^[a-z0-9][a-z0-9-]*$/;
const schemaHint = 'partners/profile.schema.json';

const display = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative === '' || relative.startsWith('..') ? file : relative;
};
const fieldName = (at: PropertyKey[]) => at.map(String).join('.');

/** Replaces every `env:NAME` string with the value of NAME; an unset variable is an error naming it. */
function resolveEnv(value: unknown, at: string[], env: NodeJS.ProcessEnv, errors: string[], resolvedValues: string[]): unknown {
  if (typeof value === 'string') {
    const name = envReference.exec(value)?.[1];
    if (name === undefined) return value;
    const resolved = env[name];
    if (resolved === undefined) errors.push(`"${at.join('.')}" reads env:${name}, which is not set; export ${name}=… or add it to .env`);
    else resolvedValues.push(resolved);
    return resolved;
  }
  if (Array.isArray(value)) return value.map((item, i) => resolveEnv(item, [...at, String(i)], env, errors, resolvedValues));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveEnv(item, [...at, key], env, errors, resolvedValues)]));
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
  if (reservedNames.has(name)) return fail(`"${name}" is a name the harness keeps for itself (${name === 'history' ? 'the history\'s folder' : 'its own test project'}); rename the file`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix the syntax`);
  }
  const envErrors: string[] = [];
  const envValues: string[] = [];
  const resolved = resolveEnv(raw, [], env, envErrors, envValues);
  if (envErrors.length > 0) return fail(...envErrors);
  const parsed = profileSchema.safeParse(resolved);
  if (!parsed.success) return fail(...parsed.error.issues.map(formatIssue));
  // `npm run certify -- <partner> --slow` turns the slow checks on for one run, whatever the profile says.
  if (env.CERTIFY_SLOW === '1') parsed.data.slowChecks = true;
  if (parsed.data.caFile !== undefined) {
    const caFile = path.resolve(path.dirname(file), parsed.data.caFile);
    const problem = pemProblem(caFile);
    if (problem) return fail(`"caFile": ${problem}`);
    parsed.data.caFile = caFile;
  }
  const waiversFile = file.replace(/\.json$/, waiversSuffix);
  const waivers = existsSync(waiversFile) ? loadWaivers(waiversFile) : { waivers: [], errors: [] };
  if (waivers.errors.length > 0) return { errors: waivers.errors };
  return { profile: { name, file, profile: parsed.data, envValues, waivers: waivers.waivers, ...(existsSync(waiversFile) ? { waiversFile } : {}) }, errors: [] };
}

const waiversSuffix = '.waivers.json';
const ruleIds = new Set(allRules.map((rule) => rule.id));

/** A partner's waivers; each error names the file, the waiver and the fix. A waiver of no known rule is an error, since it could never apply. */
export function loadWaivers(file: string): { waivers: Waiver[]; errors: string[] } {
  const fail = (...problems: string[]) => ({ waivers: [], errors: problems.map((problem) => `${display(file)}: ${problem}`) });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix the syntax`);
  }
  const parsed = waiversFileSchema.safeParse(raw);
  if (!parsed.success) return fail(...parsed.error.issues.map(formatIssue));
  const unknown = parsed.data.waivers.flatMap(({ rule }, index) =>
    ruleIds.has(rule) ? [] : [`"waivers.${index}.rule" names no rule ("${rule}"); copy the id from the report or docs/RULES.md`]);
  if (unknown.length > 0) return fail(...unknown);
  return { waivers: parsed.data.waivers.map(({ rule, field, message, reason, approvedBy, expires }) => ({ rule, reason, approvedBy, expires, ...(field !== undefined ? { field } : {}), ...(message !== undefined ? { message } : {}) })), errors: [] };
}

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return a === b;
  }
};

const jsonFiles = (dir: string) =>
  readdirSync(dir)
    .filter((entry) => entry.endsWith('.json') && !entry.endsWith('.schema.json') && !entry.endsWith(waiversSuffix))
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
  // The platform keeps one configuration per partner name: two profiles sharing one would have the platform
  // send one partner's codes and client secret to the other's endpoints.
  for (const [index, { file, profile }] of profiles.entries()) {
    const name = profile.platform?.partnerName;
    if (name === undefined) continue;
    const twin = profiles.slice(0, index).find((other) => other.profile.platform?.partnerName === name && sameUrl(other.profile.platform.url, profile.platform!.url));
    if (twin) {
      errors.push(`${display(file)}: "platform.partnerName" is "${name}", as in ${display(twin.file)} on the same platform; the platform keeps one configuration per partner name, so one partner would receive the other's codes and client secret; give each profile its own partner name`);
    }
  }
  return { profiles, errors };
}

/** partners/waivers.schema.json. */
export const waiversJsonSchema = () => ({
  $id: 'https://partner-certify.invalid/partners/waivers.schema.json',
  ...z.toJSONSchema(waiversFileSchema, { io: 'input', target: 'draft-2020-12' }),
});

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

/** Why a "caFile" cannot be used: missing, unreadable, or without a PEM certificate. */
function pemProblem(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return `cannot read ${display(file)}; give the path of a PEM file, relative to the profile`;
  }
  return text.includes('-----BEGIN CERTIFICATE-----') ? undefined : `${display(file)} holds no PEM certificate ("-----BEGIN CERTIFICATE-----")`;
}
