import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { z } from 'zod';
import { allRules } from '../checks/catalogue';
import { letsOthersIn, type Owner } from '../checks/finding';
import type { Waiver } from '../checks/waivers';
import { hostKey } from '../profile/host-key';
import { profileSchema, type Profile } from '../profile/profile-schema';
import { longestWaiverDays, waiversFileSchema } from '../profile/waiver-schema';
import { asWritten, envPrefixes, envReference, resolveEnv, type EnvReading } from './env-references';

export interface LoadedProfile {
  /** The Playwright project name: the file name without `.json`. */
  name: string;
  file: string;
  profile: Profile;
  /** Every value read from an `env:` variable, wherever it sits (a key in a URL, a typed password): all secrets. */
  envValues: string[];
  /** The variable each `env:` field was read from, by field path ("clientSecret"): what a fix names. */
  envNames: Record<string, string>;
  /** `<name>.waivers.json` beside the profile, when there is one; its waivers (of the partner's rules), in the file's order. */
  waiversFile?: string;
  waivers: Waiver[];
  /** `platform.waivers.json` beside the profile: waivers of the platform's rules, one file for every partner on it. */
  platformWaivers: Waiver[];
}

// The harness's own projects, the history's folder inside a moved report folder (reports/history.ts), and
// the platform's waivers file (platform.waivers.json).
const reservedNames = new Set(['unit', 'self-test', 'history', 'platform']);
const profileName = /^[a-z0-9][a-z0-9-]*$/;
/**
 * A project name is a folder name in reports/out, the history and the run's folder, and ends Playwright's
 * test-results folder names (60 characters of title before it): 64 keeps every path component far under
 * the 255 bytes ext4, APFS and NTFS accept, and a report's paths under Windows' 260.
 */
export const longestProfileName = 64;

const schemaHint = 'partners/profile.schema.json';

const display = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative === '' || relative.startsWith('..') ? file : relative;
};
const fieldName = (at: PropertyKey[]) => at.map(String).join('.');

function formatIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${fieldName([...issue.path, key])}"`).join(', ');
    return `unknown field ${keys}; check the spelling against ${schemaHint}`;
  }
  return issue.path.length === 0 ? `the profile ${issue.message}` : `"${fieldName(issue.path)}" ${issue.message}`;
}

/** Why `name` cannot be a profile's name (the rule of every profile file and of `init`), in words `subject` begins. */
export function profileNameProblem(name: string, { subject = 'the file name', counted = ' before ".json"', fix = 'rename the file' } = {}): string | undefined {
  if (!profileName.test(name)) return `${subject} must be lower-case letters, digits and dashes, since it becomes the project name`;
  if (name.length > longestProfileName)
    return `${subject} has ${name.length} characters${counted}; the project name is part of the report's folder names, so keep it to ${longestProfileName}`;
  const whose = { history: "the history's folder", platform: "the platform's waivers, platform.waivers.json" }[name] ?? 'its own test project';
  if (reservedNames.has(name)) return `"${name}" is a name the harness keeps for itself (${whose}); ${fix}`;
  return undefined;
}

/** Loads one profile file. Each error is one line naming the file, the field and the fix. `now` dates the waivers' limits. */
export function loadProfile(file: string, env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): { profile?: LoadedProfile; errors: string[] } {
  const fail = (...problems: string[]) => ({ errors: problems.map((problem) => `${display(file)}: ${problem}`) });
  const nameProblem = profileNameProblem(path.basename(file, '.json'));
  if (nameProblem) return fail(nameProblem);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix the syntax`);
  }
  return profileOf(file, raw, env, now);
}

/** A profile's parsed JSON, checked as `loadProfile` checks the file `file` (which need not exist yet: `init` checks before it writes). */
export function profileOf(
  file: string,
  raw: unknown,
  env: NodeJS.ProcessEnv = process.env,
  now: Date = new Date(),
): { profile?: LoadedProfile; errors: string[] } {
  const name = path.basename(file, '.json');
  const fail = (...problems: string[]) => ({ errors: problems.map((problem) => `${display(file)}: ${problem}`) });
  const reading: EnvReading = { env, prefixes: envPrefixes(env).prefixes, errors: [], values: [], names: {} };
  const resolved = resolveEnv(raw, [], reading);
  if (reading.errors.length > 0) return fail(...reading.errors);
  const envValues = reading.values;
  const parsed = profileSchema.safeParse(resolved);
  if (!parsed.success) return fail(...parsed.error.issues.map((issue) => asWritten(formatIssue(issue), reading)));
  // `npm run certify -- <partner> --slow` turns the slow checks on for one run, whatever the profile says.
  if (env.CERTIFY_SLOW === '1') parsed.data.slowChecks = true;
  if (parsed.data.caFile !== undefined) {
    const caFile = path.resolve(path.dirname(file), parsed.data.caFile);
    const problem = pemProblem(caFile);
    if (problem) return fail(`"caFile": ${problem}`);
    parsed.data.caFile = caFile;
  }
  const waiversFile = file.replace(/\.json$/, waiversSuffix);
  const waivers = existsSync(waiversFile) ? loadWaivers(waiversFile, now, 'partner') : { waivers: [], errors: [] };
  const platformFile = path.join(path.dirname(file), `platform${waiversSuffix}`);
  const platformWaivers = existsSync(platformFile) ? loadWaivers(platformFile, now, 'platform') : { waivers: [], errors: [] };
  if (waivers.errors.length + platformWaivers.errors.length > 0) return { errors: [...waivers.errors, ...platformWaivers.errors] };
  return {
    profile: {
      name,
      file,
      profile: parsed.data,
      envValues,
      envNames: reading.names,
      waivers: waivers.waivers,
      platformWaivers: platformWaivers.waivers,
      ...(existsSync(waiversFile) ? { waiversFile } : {}),
    },
    errors: [],
  };
}

const waiversSuffix = '.waivers.json';
const rulesById = new Map(allRules.map((rule) => [rule.id, rule]));
const dayMs = 24 * 60 * 60 * 1000;

/**
 * A partner's waivers; each error names the file, the waiver and the fix. A waiver of no known rule is an
 * error, since it could never apply; so is one of a rule whose failure lets someone other than the platform
 * in (DESIGN §4 (b): Rule.must.othersIn), and one that runs longer than 180 days from `now`: a waiver is a decision reviewed
 * at least that often.
 */
export function loadWaivers(file: string, now: Date = new Date(), owner: Owner = 'partner'): { waivers: Waiver[]; errors: string[] } {
  const fail = (...problems: string[]) => ({ waivers: [], errors: problems.map((problem) => `${display(file)}: ${problem}`) });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail(`is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix the syntax`);
  }
  const parsed = waiversFileSchema.safeParse(raw);
  if (!parsed.success) return fail(...parsed.error.issues.map(formatIssue));
  const latest = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + longestWaiverDays * dayMs).toISOString().slice(0, 10);
  const problems = parsed.data.waivers.flatMap(({ rule, expires }, index) => {
    const known = rulesById.get(rule);
    if (!known) return [`"waivers.${index}.rule" names no rule ("${rule}"); copy the id from the report or docs/RULES.md`];
    // A partner's file waives the partner's rules; the platform's, once for every partner on it, the platform's.
    if (known.owner !== owner)
      return [
        `"waivers.${index}.rule" is ${rule}, a rule of the ${known.owner}'s; waive it in ${known.owner === 'platform' ? 'platform.waivers.json, beside the profiles' : "the partner's own <partner>.waivers.json"}`,
      ];
    return [
      ...(letsOthersIn(known) ? [`"waivers.${index}.rule" is ${rule}, which cannot be waived: when it fails, ${known.impact}; fix the endpoint instead`] : []),
      ...(expires > latest
        ? [
            `"waivers.${index}.expires" is ${expires}, more than ${longestWaiverDays} days ahead; a waiver is reviewed at least every ${longestWaiverDays} days: give ${latest} or earlier`,
          ]
        : []),
    ];
  });
  if (problems.length > 0) return fail(...problems);
  return {
    waivers: parsed.data.waivers.map(({ rule, field, message, reason, approvedBy, expires }) => ({
      rule,
      reason,
      approvedBy,
      expires,
      ...(field !== undefined ? { field } : {}),
      ...(message !== undefined ? { message } : {}),
    })),
    errors: [],
  };
}

/** Whether two platform URLs reach one server: the same host, however spelled, and port (profile/host-key.ts). */
const samePlatform = (a: string, b: string) => {
  const key = hostKey(a);
  return key !== undefined && key === hostKey(b);
};

// A folder that is not there holds no profile: a newcomer's empty folder, before `init`.
const jsonFiles = (dir: string) =>
  (existsSync(dir) ? readdirSync(dir) : [])
    .filter((entry) => entry.endsWith('.json') && !entry.endsWith('.schema.json') && !entry.endsWith(waiversSuffix))
    .sort()
    .map((entry) => path.join(dir, entry));

/**
 * Every profile of `partnersDir` and $PARTNERS_DIR, or those `only` names: a profile a run was not asked
 * for is not read at all, so its mistakes stop no one else's run. `others` are the names left unread.
 */
export function loadProfiles(
  partnersDir: string,
  { env = process.env, envFile = '.env', only = () => true }: { env?: NodeJS.ProcessEnv; envFile?: string; only?: (name: string) => boolean } = {},
): { profiles: LoadedProfile[]; errors: string[]; others: string[] } {
  loadDotenv({ quiet: true, path: envFile, processEnv: env });
  const dirs = [partnersDir];
  const errors: string[] = [...envPrefixes(env).errors];
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
  const others: string[] = [];
  for (const file of dirs.flatMap(jsonFiles)) {
    if (!only(path.basename(file, '.json'))) {
      others.push(path.basename(file, '.json'));
      continue;
    }
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
    const twin = profiles
      .slice(0, index)
      .find((other) => other.profile.platform?.partnerName === name && samePlatform(other.profile.platform.url, profile.platform!.url));
    if (twin) {
      errors.push(
        `${display(file)}: "platform.partnerName" is "${name}", as in ${display(twin.file)} on the same platform; the platform keeps one configuration per partner name, so one partner would receive the other's codes and client secret; give each profile its own partner name`,
      );
    }
  }
  return { profiles, errors, others };
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
    description: "A partner-certify profile. A string, or a URL's user name, password or query value, written env:NAME is read from the environment.",
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
