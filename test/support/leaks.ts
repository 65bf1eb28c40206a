import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';

/**
 * The redaction self-tests' search for planted secrets, written independently of the redactor: every text
 * a run left (files, zips, blobs, Playwright's embedded report), and every form a secret may take in them.
 */

/** Every text a folder holds: files as they are, and inside zips (traces, blobs) and base64 zips (Playwright's HTML report). */
export function textsUnder(dir: string): { file: string; text: string }[] {
  const texts: { file: string; text: string }[] = [];
  const visit = (name: string, bytes: Uint8Array) => {
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
      for (const [entry, content] of Object.entries(unzipSync(bytes))) visit(`${name}!${entry}`, content);
      return;
    }
    // Images by their first bytes (PNG, JPEG, GIF, WebP); any other file is text, in UTF-8 or one character a byte.
    const head = Buffer.from(bytes.subarray(0, 12));
    if (head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) || head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return;
    if (head.toString('latin1').startsWith('GIF8') || (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')) return;
    // Playwright's own viewer code (trace viewer, HTML report app) is no artifact of the run; the report's
    // data, embedded in its index.html as a zip, is visited below.
    if (/\.(js|css)$/.test(name) || (/html-report/.test(name) && name.endsWith('index.html') && !name.includes('!'))) {
      const text = Buffer.from(bytes).toString('utf8');
      for (const [, base64] of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) visit(`${name}!embedded.zip`, Buffer.from(base64!, 'base64'));
      return;
    }
    const utf8 = Buffer.from(bytes).toString('utf8');
    const text = utf8.includes('\uFFFD') ? Buffer.from(bytes).toString('latin1') : utf8;
    texts.push({ file: name, text });
    for (const [, base64] of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g)) visit(`${name}!embedded.zip`, Buffer.from(base64!, 'base64'));
  };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) visit(path.join(entry.parentPath, entry.name), readFileSync(path.join(entry.parentPath, entry.name)));
  }
  return texts;
}

/**
 * Every form a secret may be written in: plain, any case, percent-encoded once and twice, form-encoded,
 * JSON- and HTML-escaped, base64 and base64url. Written out here, independently of the redactor.
 */
export function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const htmlEscaped = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  const base64 = Buffer.from(secret).toString('base64').replace(/=+$/, '');
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(encodeURIComponent(secret)),
      new URLSearchParams({ v: secret }).toString().slice(2),
      json,
      JSON.stringify(json).slice(1, -1),
      htmlEscaped,
      base64,
      base64.replaceAll('+', '-').replaceAll('/', '_'),
    ]),
  ];
}

/**
 * Where any window of half a form (at least 10 characters; `shortest` for a shorter one) of any secret shows up
 * in any text, in any letter case: every 10-character window is indexed, and each hit is extended to the longest common run.
 */
export function leaksOf(secrets: Record<string, string>, texts: readonly { file: string; text: string }[], { shortest }: { shortest?: number } = {}): string[] {
  const seed = 10;
  const windows = new Map<string, { name: string; form: string; at: number }[]>();
  for (const [name, secret] of Object.entries(secrets)) {
    for (const form of formsOf(secret).map((f) => f.toLowerCase())) {
      for (let at = 0; at + seed <= form.length; at++) {
        const key = form.slice(at, at + seed);
        windows.set(key, [...(windows.get(key) ?? []), { name, form, at }]);
      }
    }
  }
  const leaks = new Set<string>();
  for (const { file, text } of texts) {
    const lower = text.toLowerCase();
    for (let i = 0; i + seed <= lower.length; i++) {
      const hits = windows.get(lower.slice(i, i + seed));
      if (!hits) continue;
      for (const { name, form, at } of hits) {
        let run = seed;
        while (at + run < form.length && lower[i + run] === form[at + run]) run++;
        let back = 0;
        while (at - back > 0 && i - back > 0 && lower[i - back - 1] === form[at - back - 1]) back++;
        if (run + back >= Math.max(seed, shortest ?? Math.ceil(form.length / 2)))
          leaks.add(
            `${name} (${run + back} of ${form.length} characters of one form) in ${path.basename(file)}: …${text.slice(Math.max(0, i - back - 20), i + run + 20)}…`,
          );
      }
    }
  }
  return [...leaks];
}
