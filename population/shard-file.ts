import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { summarySchema, type PopulationSummary } from './summary-schema';

/**
 * A shard's summary leaves its machine, and holds every shape and advice with its count, those fewer than k users
 * share included (the merge needs them to add up). So the whole summary is sealed (AES-256-GCM) under a key derived
 * (HKDF-SHA256) from one that every shard and the merge are given (`POPULATION_SHARD_KEY`, at least 256 bits, as
 * hex): without it a file shows only which shard of which split it is, and a file changed in any byte, or a shard
 * claiming another place in the split, does not open.
 */
export const shardKeyVariable = 'POPULATION_SHARD_KEY';

// Strict: a field added to the file, or a seal that is not base64url, is a file changed since it was written.
const fileSchema = z
  .object({
    populationShardSummary: z.literal(2),
    shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).strict(),
    sealed: z.string().regex(/^[A-Za-z0-9_-]+$/),
  })
  .strict();

/** Why the key cannot be used, or undefined: hex of at least 256 bits (`openssl rand -hex 32`). */
export function shardKeyProblem(secret: string | undefined): string | undefined {
  const make = `make one with \`openssl rand -hex 32\` and give it to every shard and the merge`;
  if (!secret) return `set ${shardKeyVariable}: ${make}`;
  if (!/^[0-9a-fA-F]+$/.test(secret) || secret.length % 2 === 1) return `${shardKeyVariable} is not hex; ${make}`;
  // 256 bits, not 128: a 128-bit key people reach for (the MD5 of a word, hexspeak) looks random and is guessed offline.
  if (secret.length < 64) return `${shardKeyVariable} holds ${secret.length * 4} bits, fewer than 256; ${make}`;
  // A key a person typed (00…0, a pattern repeated) is guessed offline, and opens every rare shape: random bytes only.
  const bytes = Buffer.from(secret, 'hex');
  const repeated = Array.from({ length: bytes.length >> 1 }, (_, i) => i + 1).some(
    (period) => bytes.length % period === 0 && bytes.every((byte, i) => byte === bytes[i % period]),
  );
  // A sequence (000102…, 0f0e0d…, a step of 7) or runs of near digits (00112233…, 0123…fedc…), as test vectors are.
  const stepped = bytes.every((byte, i) => i === 0 || (byte - bytes[i - 1]! + 256) % 256 === (bytes[1]! - bytes[0]! + 256) % 256);
  const digits = [...secret.toLowerCase()].map((digit) => parseInt(digit, 16));
  const near = digits.filter((digit, i) => i > 0 && [0, 1, 15].includes((digit - digits[i - 1]! + 16) % 16)).length;
  // The hex of a phrase someone typed, in any encoding (UTF-8 with accents, UTF-16 with a zero byte each second), or
  // a random half padded: random bytes are printable 37% of the time, and 32 of them repeat no value 6 times but once
  // in a million keys.
  const counts = new Array<number>(256).fill(0);
  for (const byte of bytes) counts[byte]!++;
  const within = (low: number, high: number) => counts.slice(low, high).reduce((sum, n) => sum + n, 0);
  const typed =
    within(0x20, 0x7f) > 0.75 * bytes.length ||
    Math.max(...counts) >= Math.max(6, Math.ceil(bytes.length / 8)) ||
    // In a legacy or multi-byte encoding (GBK, Big5, ISO-8859-7) a phrase has no control byte and mostly high ones.
    (within(0, 0x20) + within(0x7f, 0xa0) === 0 && within(0xa0, 0x100) >= 0.75 * bytes.length) ||
    // UTF-8 beyond Latin (CJK, Cyrillic): nearly every byte 0x80 or above, where random bytes are half.
    within(0x80, 0x100) >= 0.9 * bytes.length;
  // 128 random bits and a second half made from the first (reversed, rotated, complemented, each byte shifted).
  const [front, back] = [bytes.subarray(0, bytes.length >> 1), bytes.subarray(bytes.length >> 1, 2 * (bytes.length >> 1))];
  const sameBytes = Buffer.compare(Buffer.from(front).sort(), Buffer.from(back).sort()) === 0;
  const shifted = back.every((byte, i) => (byte - front[i]! + 256) % 256 === (back[0]! - front[0]! + 256) % 256);
  const complemented = back.every((byte, i) => (byte ^ front[i]!) === (back[0]! ^ front[0]!));
  const halved = sameBytes || shifted || complemented;
  if (repeated || stepped || typed || halved || near > 0.6 * (digits.length - 1) || counts.filter((n) => n > 0).length < 10)
    return `${shardKeyVariable} is a pattern, not random bytes; ${make}`;
  return undefined;
}

const keyOf = (secret: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'hex'), 'partner-certify', 'population shard summary v2', 32));
/** The shard's place in its split, bound to the sealed text: a file renamed or edited to claim another place does not open. */
const placeOf = (shard: { index: number; count: number }) => Buffer.from(`shard ${shard.index} of ${shard.count}`);

/** A shard's summary as the file it writes. */
export function sealSummary(summary: PopulationSummary & { shard: { index: number; count: number } }, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  cipher.setAAD(placeOf(summary.shard));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(summary), 'utf8'), cipher.final()]);
  const file = { populationShardSummary: 2, shard: summary.shard, sealed: Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url') };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The summary a shard's file holds, or why it holds none: a line naming the file, never quoting it. */
export function openSummary(text: string, secret: string, name: string): PopulationSummary | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `${name}: not a shard's summary (not JSON); give the population-summary.<i>-of-<n>.json files the shards wrote`;
  }
  const file = fileSchema.safeParse(json);
  // The file as a shard writes it, byte for byte: its wrapper is not sealed, so any other form of it is a change.
  if (file.success && text !== `${JSON.stringify(file.data, null, 2)}\n`)
    return `${name}: changed since it was written (its wrapper is not as a shard writes it); judge that shard again`;
  if (!file.success) return `${name}: not a shard's summary; give the population-summary.<i>-of-<n>.json files the shards wrote (with --shard)`;
  const bytes = Buffer.from(file.data.sealed, 'base64url');
  let opened: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), bytes.subarray(0, 12));
    decipher.setAAD(placeOf(file.data.shard));
    decipher.setAuthTag(bytes.subarray(12, 28));
    opened = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return `${name}: does not open with ${shardKeyVariable}: it was sealed with another key, or changed since it was written; give the key its shards were given, or judge that shard again`;
  }
  const summary = summarySchema.safeParse(JSON.parse(opened));
  if (!summary.success) return `${name}: its summary is of another version of partner-certify; judge every shard with the same version`;
  return summary.data;
}

/** Why shards cannot be merged as one input: the same shard twice, shards of different splits, or shards missing. */
export function shardsProblem(parts: readonly { name: string; summary: Pick<PopulationSummary, 'shard' | 'seen'> }[]): string | undefined {
  const [first] = parts;
  const split = first?.summary.shard?.count;
  for (const { name, summary } of parts) {
    if (!summary.shard) return `${name}: not a shard's summary`;
    if (summary.shard.count !== split) return `${first!.name} is a shard of ${split} and ${name} of ${summary.shard.count}: merge the shards of one split`;
    // Every shard reads the whole input: the same bytes and lines, or another input.
    const [a, b] = [first!.summary.seen, summary.seen];
    if (a.columns !== b.columns)
      return `${first!.name} and ${name} were judged with different --column or --columns maps (or one with none): judge every shard with the same map`;
    if (a.funding !== b.funding)
      return `${first!.name} and ${name} ${a.funding === undefined || b.funding === undefined ? 'were not both given --funding' : 'read different --funding answers'}: judge every shard with the same --funding file`;
    if (a.bytes !== b.bytes || a.lines !== b.lines || a.digest !== b.digest)
      return `${first!.name} and ${name} are shards of different inputs (${a.lines.toLocaleString('en-US')} and ${b.lines.toLocaleString('en-US')} records read): judge every shard of one export`;
  }
  const seen = new Map<number, string>();
  for (const { name, summary } of parts) {
    const twice = seen.get(summary.shard!.index);
    if (twice) return `${twice} and ${name} are both shard ${summary.shard!.index} of ${split}: give each shard once`;
    seen.set(summary.shard!.index, name);
  }
  // Named without a list as long as the split: a summary may claim a split of any size.
  const absent = (split ?? 0) - seen.size;
  const missing: number[] = [];
  for (let index = 1; missing.length < Math.min(absent, 10); index++) if (!seen.has(index)) missing.push(index);
  if (absent > 0)
    return `shard${absent > 1 ? 's' : ''} ${missing.join(', ')}${absent > missing.length ? ` and ${absent - missing.length} more` : ''} of ${split} ${absent > 1 ? 'are' : 'is'} missing: merge every shard's summary, or the counts are of part of the users`;
  return undefined;
}
