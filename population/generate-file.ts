import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { defects, generatePopulation } from './generate';
import { besideItsName, WriteProblem } from './whole-file';

/**
 * `population generate`: N users as JSON Lines into `file` (or standard output), a MiB at a time. A file is written
 * beside its name and renamed into place once every byte is written, as the command's other files are
 * (population/whole-file.ts): interrupted or refused (a full disk: WriteProblem), it is as it was, and a link already
 * there is replaced, never followed.
 */
export async function writeGenerated({ users, seed, now, file }: { users: number; seed: number; now: Date; file: string | undefined }): Promise<void> {
  if (!file) {
    // Until the last user is written, a reader that stops early (`| head`) cuts them short: the command then ends with
    // 141, as one a SIGPIPE ends does (`yes | head`), so that a pipeline with pipefail is told (scripts/commands.ts).
    process.exitCode = 141;
    await writeUsers(process.stdout, users, seed, now);
    process.exitCode = 0;
    return;
  }
  const beside = besideItsName(path.resolve(file));
  try {
    const stream = createWriteStream(beside.partial, { flags: 'wx' });
    const failed = new Promise<never>((_, reject) => stream.once('error', reject));
    await Promise.race([writeUsers(stream, users, seed, now), failed]);
    // A write the file system refused (a full disk) may end the stream all the same: the stream knows.
    if (stream.errored) throw stream.errored;
    beside.keep();
  } catch (error) {
    beside.drop();
    throw new WriteProblem(file, error);
  }
  console.error(
    `wrote ${users.toLocaleString('en-US')} users to ${file} (${defects.length} kinds of defect: ${path.relative(process.cwd(), path.join(__dirname, `generate${path.extname(__filename)}`))})`,
  );
}

async function writeUsers(stream: NodeJS.WritableStream, users: number, seed: number, now: Date): Promise<void> {
  let text = '';
  for (const payload of generatePopulation({ users, seed, now })) {
    text += `${JSON.stringify(payload)}\n`;
    if (text.length <= 1 << 20) continue;
    const flushed = stream.write(text);
    text = '';
    if (!flushed) await once(stream, 'drain');
  }
  // Standard output is not ended (the command may print after it); a write that fails never resolves: its error ends the command.
  if (stream === process.stdout) await new Promise<void>((resolve) => stream.write(text, (error) => error || resolve()));
  else await new Promise<void>((resolve) => stream.end(text, resolve));
}
