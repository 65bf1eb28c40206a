import type { Area } from '../checks/catalogue';
import type { Owner } from '../checks/finding';
import { parseProbeRecord, type ProbeRecord } from './probe-record';

/**
 * What a test hands the certification reporter, through Playwright's annotations and attachments: the
 * probe and its area (declared with the test, so known before it runs), its record (run/probe-record.ts:
 * findings, evidence and the clock they were decided with), the screens a browser showed and the browser
 * that showed them. The fixtures write with these functions and
 * the reporter reads with `readTest`, so neither side spells a name.
 */

interface Annotation {
  type: string;
  description?: string;
}

interface Attachment {
  name: string;
  contentType: string;
  body?: Buffer | string;
  path?: string;
}

const names = {
  probe: 'probe',
  area: 'area',
  owner: 'owner',
  browser: 'browser',
  skip: 'skip',
  run: 'certification run',
  judgedBy: 'platform judged by',
  record: 'probe record',
  screen: 'screen: ',
  codeRetry: 'code request retried',
} as const;

/**
 * Which run a test's outcome belongs to, as the test itself records it: the run's id (CERTIFY_RUN_ID, one
 * for all the shards of a run), its shard, and the digest of the profile it ran with. A merge of blob
 * reports reads it to refuse the blobs of other runs and to find the shards that are missing.
 */
export interface RunStamp {
  id: string;
  shard: { current: number; total: number } | null;
  profile: string;
}

/** The test details of a probe's test: its id, area and owner (whose rules it judges) travel with the test. */
export const probeAnnotations = ({ id, area, owner }: { id: string; area: Area; owner: Owner }): Annotation[] => [
  { type: names.probe, description: id },
  { type: names.area, description: area },
  { type: names.owner, description: owner },
];

export const browserAnnotation = (browser: string): Annotation => ({ type: names.browser, description: browser });
export const runAnnotation = (stamp: RunStamp): Annotation => ({ type: names.run, description: JSON.stringify(stamp) });
/** A platform test of a partner whose platform another partner's tests judge, once for all: which partner's. */
export const judgedByAnnotation = (partner: string): Annotation => ({ type: names.judgedBy, description: partner });
/** A code request the code source asked again after a transient failure, and why ("answered 500"): one annotation each. */
export const codeRetryAnnotation = (reason: string): Annotation => ({ type: names.codeRetry, description: reason });

/** The record must already be masked: the attachment is stored as it is. */
export const recordAttachment = (record: ProbeRecord) => ({ name: names.record, body: JSON.stringify(record, null, 2), contentType: 'application/json' });
export const screenAttachment = (screen: string, path: string) => ({ name: `${names.screen}${screen}`, path, contentType: 'image/png' });

export interface TestMessage {
  probe?: string;
  area?: Area;
  owner?: Owner;
  browser?: string;
  skipReason?: string;
  run?: RunStamp;
  /** For a platform test this partner did not run: the partner whose tests judged the platform. */
  judgedBy?: string;
  /** What the probe found, when the test got that far. */
  record?: ProbeRecord;
  /** Why the record the test attached could not be read. */
  recordError?: string;
  /** Screens by name, as files (the reporter reads them when it writes the report). */
  screens: { name: string; path: string }[];
  /** Why each code request retried while the test ran was retried. */
  codeRetries: string[];
}

function parsed<T>(body: Buffer | string | undefined, fallback: T): T {
  if (body === undefined) return fallback;
  try {
    return JSON.parse(body.toString()) as T;
  } catch {
    return fallback;
  }
}

/** What a test said, from its annotations (the test's and its result's) and its result's attachments. */
export function readTest(annotations: readonly Annotation[], attachments: readonly Attachment[] = []): TestMessage {
  const annotation = (type: string) => annotations.find((a) => a.type === type)?.description;
  const body = (name: string) => attachments.find((a) => a.name === name)?.body;
  const area = annotation(names.area) as Area | undefined;
  const owner = annotation(names.owner);
  const [probe, browser, skipReason] = [annotation(names.probe), annotation(names.browser), annotation(names.skip)];
  const run = stampOf(annotation(names.run));
  const judgedBy = annotation(names.judgedBy);
  return {
    ...(probe !== undefined ? { probe } : {}),
    ...(run !== undefined ? { run } : {}),
    ...(judgedBy !== undefined ? { judgedBy } : {}),
    ...(area !== undefined ? { area } : {}),
    ...(owner === 'partner' || owner === 'platform' ? { owner } : {}),
    ...(browser !== undefined ? { browser } : {}),
    ...(skipReason !== undefined ? { skipReason } : {}),
    ...recordOf(body(names.record)),
    screens: attachments.filter((a) => a.name.startsWith(names.screen) && a.path).map((a) => ({ name: a.name.slice(names.screen.length), path: a.path! })),
    codeRetries: annotations.filter((a) => a.type === names.codeRetry).map((a) => a.description ?? 'unknown'),
  };
}

function recordOf(body: Buffer | string | undefined): Pick<TestMessage, 'record' | 'recordError'> {
  if (body === undefined) return {};
  const read = parseProbeRecord(body);
  return 'record' in read ? { record: read.record } : { recordError: read.error };
}

function stampOf(description: string | undefined): RunStamp | undefined {
  const stamp = parsed<Partial<RunStamp> | undefined>(description, undefined);
  if (!stamp || typeof stamp.id !== 'string' || typeof stamp.profile !== 'string') return undefined;
  const shard =
    stamp.shard && Number.isInteger(stamp.shard.current) && Number.isInteger(stamp.shard.total)
      ? { current: stamp.shard.current, total: stamp.shard.total }
      : null;
  return { id: stamp.id, shard, profile: stamp.profile };
}
