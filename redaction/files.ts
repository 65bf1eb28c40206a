import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';

import { redact, redactData } from './redact';
import { base64Forms, SecretMatcher } from './secret-matcher';
import type { Secret } from './secrets';

// ---- files: text, zip archives (Playwright traces) and zips embedded as data URLs (its HTML report) --

const utf8 = new TextDecoder('utf-8', { fatal: true });
/**
 * The text a file holds, and how to write it back: UTF-8, or, for bytes that are not (a page in Latin-1, a page with
 * a NUL in it), one character a byte, which writes back byte for byte. Only what is known to hold no text (an image,
 * a font, a video, gzip) is passed over: a page a partner serves in any encoding is masked and scanned.
 */
function textOf(bytes: Uint8Array): { text: string; encoding: 'utf8' | 'latin1' } | undefined {
  if (isMedia(bytes)) return undefined;
  try {
    return { text: utf8.decode(bytes), encoding: 'utf8' };
  } catch {
    return { text: Buffer.from(bytes).toString('latin1'), encoding: 'latin1' };
  }
}

const startsWith = (bytes: Uint8Array, ...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
const ascii = (bytes: Uint8Array, at: number, text: string) => Buffer.from(bytes.subarray(at, at + text.length)).toString('latin1') === text;
/** Images, fonts, videos and gzip, by their first bytes. */
const isMedia = (bytes: Uint8Array) =>
  startsWith(bytes, 0x89, 0x50, 0x4e, 0x47) || // PNG
  startsWith(bytes, 0xff, 0xd8, 0xff) || // JPEG
  ascii(bytes, 0, 'GIF8') ||
  (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) ||
  ascii(bytes, 0, 'wOFF') ||
  ascii(bytes, 0, 'wOF2') ||
  ascii(bytes, 0, 'OTTO') ||
  startsWith(bytes, 0x00, 0x01, 0x00, 0x00) || // TrueType
  ascii(bytes, 4, 'ftyp') || // MP4
  startsWith(bytes, 0x1a, 0x45, 0xdf, 0xa3) || // WebM
  startsWith(bytes, 0x1f, 0x8b); // gzip

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const embeddedZip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/g;
const dataUrlPayload = /(?<=data:(?:image|font|video|audio|application\/zip)[\w./+-]*;base64,)[A-Za-z0-9+/=]+/g;

function redactZip(bytes: Uint8Array, secrets: readonly Secret[], also: readonly Secret[]): Uint8Array {
  const entries = Object.entries(unzipSync(bytes)).map(([name, entry]) => [name, redactBytes(entry, secrets, also)] as const);
  return zipSync(Object.fromEntries(entries));
}

/** The same bytes when there is nothing to mask. */
export function redactBytes(bytes: Uint8Array, secrets: readonly Secret[], also: readonly Secret[] = []): Uint8Array {
  if (isZip(bytes)) return redactZip(bytes, secrets, also);
  const read = textOf(bytes);
  if (read === undefined) return bytes;
  const { text, encoding } = read;
  const clean = redact(text, secrets, also).replace(
    embeddedZip,
    (_, base64: string) => `data:application/zip;base64,${Buffer.from(redactZip(Buffer.from(base64, 'base64'), secrets, also)).toString('base64')}`,
  );
  if (clean === text) return bytes;
  // JSON (Playwright's report data) and JSON lines (traces, blobs) are masked as data, string by string,
  // so no secret, whatever it holds (quotes, braces), rewrites a key or breaks the structure.
  const masked = asData(text, secrets, also) ?? clean;
  return encoding === 'utf8' ? strToU8(masked) : Buffer.from(masked, 'latin1');
}

/** `text` masked value by value when it is JSON or JSON lines; undefined when it is neither. */
function asData(text: string, secrets: readonly Secret[], also: readonly Secret[]): string | undefined {
  const parse = (line: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(line) as unknown };
    } catch {
      return { ok: false };
    }
  };
  const whole = parse(text);
  if (whole.ok) return JSON.stringify(redactData(whole.value, secrets, also));
  const lines = text.split('\n');
  const parsed = lines.map((line) => (line.trim() === '' ? undefined : parse(line)));
  if (parsed.some((line) => line !== undefined && !line.ok) || parsed.every((line) => line === undefined)) return undefined;
  return parsed.map((line, i) => (line?.ok ? JSON.stringify(redactData(line.value, secrets, also)) : lines[i])).join('\n');
}

/**
 * What tells whether a file's bytes hold any of `secrets`, whole, in any form (redaction/secret-matcher.ts: any case,
 * every encoding, base64 included), also inside zips (traces, the blob report) and zips embedded as data URLs
 * (Playwright's HTML report). Whole values only: a fragment is what masking takes out, and two values may share one
 * by chance (a client id and a key both starting "reference-", in base64 of a report's attachment). It reads, never
 * rewrites: the run's final scan (run/scan.ts) is a detector.
 */
export function secretFinder(secrets: readonly Secret[]): (bytes: Uint8Array) => boolean {
  const matcher = new SecretMatcher(secrets.map(({ value, forms }) => ({ value, forms: [...(forms ?? []), ...base64Forms(value)], whole: true })));
  const holds = (bytes: Uint8Array): boolean => {
    if (isZip(bytes)) return Object.values(unzipSync(bytes)).some(holds);
    const text = textOf(bytes)?.text;
    if (text === undefined) return false;
    // A data URL's payload is read as what it holds: a zip opened, an image (no text) passed over.
    if (matcher.find(text.replace(dataUrlPayload, '')).length > 0) return true;
    return [...text.matchAll(embeddedZip)].some(([, base64]) => holds(Buffer.from(base64!, 'base64')));
  };
  return holds;
}

/** Every file under `dir`, recursively (or `dir` itself, a file); none when it is missing. */
export function filesUnder(dir: string): string[] {
  try {
    if (statSync(dir).isFile()) return [dir];
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}
