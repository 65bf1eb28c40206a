import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { generatePopulation } from './generate';

/**
 * `population generate`: N users as JSON Lines into `file` (or standard output), a MiB at a time; resolves once every
 * byte is written, and rejects, saying why, when the file cannot be written.
 */
export async function writeGenerated({ users, seed, now, file }: { users: number; seed: number; now: Date; file: string | undefined }): Promise<void> {
  const stream = file ? createWriteStream(file) : process.stdout;
  const failed = new Promise<never>((_, reject) =>
    stream.once('error', (error: NodeJS.ErrnoException) => reject(new Error(`${file}: cannot be written (${error.code ?? error.message})`))),
  );
  const write = async () => {
    let text = '';
    for (const payload of generatePopulation({ users, seed, now })) {
      text += `${JSON.stringify(payload)}\n`;
      if (text.length <= 1 << 20) continue;
      const flushed = stream.write(text);
      text = '';
      if (!flushed) await once(stream, 'drain');
    }
    if (stream === process.stdout) stream.write(text);
    else await new Promise<void>((resolve) => stream.end(text, resolve));
  };
  await Promise.race([write(), failed]);
  // A write the file system refused (a full disk) may end the stream all the same: the stream knows.
  if (stream !== process.stdout && stream.errored)
    throw new Error(`${file}: cannot be written (${(stream.errored as NodeJS.ErrnoException).code ?? stream.errored.message})`);
}
