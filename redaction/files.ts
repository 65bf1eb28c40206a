import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';

import { redact, redactData } from './redact';
import type { Secret } from './secrets';

// ---- files: text, zip archives (Playwright traces) and zips embedded as data URLs (its HTML report) --

const utf8 = new TextDecoder('utf-8', { fatal: true });
function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined; // images, videos: no text to mask
  }
}

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const embeddedZip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/g;

function redactZip(bytes: Uint8Array, secrets: readonly Secret[]): Uint8Array {
  const entries = Object.entries(unzipSync(bytes)).map(([name, entry]) => [name, redactBytes(entry, secrets)] as const);
  return zipSync(Object.fromEntries(entries));
}

/** The same bytes when there is nothing to mask. */
export function redactBytes(bytes: Uint8Array, secrets: readonly Secret[]): Uint8Array {
  if (isZip(bytes)) return redactZip(bytes, secrets);
  const text = textOf(bytes);
  if (text === undefined) return bytes;
  const clean = redact(text, secrets).replace(
    embeddedZip,
    (_, base64: string) => `data:application/zip;base64,${Buffer.from(redactZip(Buffer.from(base64, 'base64'), secrets)).toString('base64')}`,
  );
  if (clean === text) return bytes;
  // JSON (Playwright's report data) and JSON lines (traces, blobs) are masked as data, string by string,
  // so no secret, whatever it holds (quotes, braces), rewrites a key or breaks the structure.
  return strToU8(asData(text, secrets) ?? clean);
}

/** `text` masked value by value when it is JSON or JSON lines; undefined when it is neither. */
function asData(text: string, secrets: readonly Secret[]): string | undefined {
  const parse = (line: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(line) as unknown };
    } catch {
      return { ok: false };
    }
  };
  const whole = parse(text);
  if (whole.ok) return JSON.stringify(redactData(whole.value, secrets));
  const lines = text.split('\n');
  const parsed = lines.map((line) => (line.trim() === '' ? undefined : parse(line)));
  if (parsed.some((line) => line !== undefined && !line.ok) || parsed.every((line) => line === undefined)) return undefined;
  return parsed.map((line, i) => (line?.ok ? JSON.stringify(redactData(line.value, secrets)) : lines[i])).join('\n');
}

/** Synchronous, so a reporter can mask a file before the reporters after it copy it; throws when it cannot. */
export function redactFile(file: string, secrets: readonly Secret[]): void {
  const bytes = readFileSync(file);
  const clean = redactBytes(bytes, secrets);
  if (clean !== bytes) writeFileSync(file, clean);
}

/**
 * Every file under `dir`, recursively (or `dir` itself, a file); a missing one is nothing to do. Synchronous, so
 * it can run as the process exits, after every reporter wrote. certification.json is masked as
 * data when it is written, and is left alone here, where masking text could rewrite a key; so is its
 * signature (`.jws`), which has the shape of a token but holds only a public key and a signature. With `since`,
 * only the files written from then on: an older file was masked by the run that wrote it (2 s earlier, for
 * file systems that store coarse times). Returns the files that could not be masked, each with why, so the
 * caller can say so; the others are masked anyway.
 */
export function redactTree(dir: string, secrets: readonly Secret[], { since }: { since?: Date } = {}): string[] {
  const files = filesUnder(dir).filter((file) => path.basename(file) !== 'certification.json' && !file.endsWith('.jws'));
  const failures: string[] = [];
  for (const file of files) {
    try {
      if (since && statSync(file).mtimeMs < since.getTime() - 2000) continue;
      redactFile(file, secrets);
    } catch (error) {
      failures.push(`${file} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return failures;
}

function filesUnder(dir: string): string[] {
  try {
    if (statSync(dir).isFile()) return [dir];
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}
