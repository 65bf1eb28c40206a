import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isGzipped } from './input';

/**
 * On a terminal: records judged so far, their rate, and, for a plain file (not gzip, not standard input), the time
 * left by the share of its bytes read.
 */
export function progressBar(input: string): (records: number | undefined, bytesRead?: number) => void {
  if (!process.stderr.isTTY) return () => {};
  const size = input === '-' || isGzip(input) ? undefined : statSync(input).size;
  const started = performance.now();
  let last = 0;
  return (records, bytesRead = 0) => {
    if (records === undefined) return void process.stderr.write('\r\x1b[K');
    const now = performance.now();
    if (now - last < 200) return;
    last = now;
    const seconds = (now - started) / 1000;
    const left = size && bytesRead > 0 ? ` · about ${Math.ceil((seconds * (size - bytesRead)) / bytesRead)} s left` : '';
    process.stderr.write(`\r\x1b[Kjudged ${records.toLocaleString('en-US')} records · ${Math.round(records / seconds).toLocaleString('en-US')}/s${left}`);
  };
}

function isGzip(file: string): boolean {
  const head = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  return isGzipped(head);
}
