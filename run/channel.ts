import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { eventsVersion, issuesOf, workerEventSchema } from './events';
import { leftOutcomeSchema, partnerPlanSchema, scopedSecretSchema, type PartnerPlan } from './plan';

/**
 * How the run's workers and its coordinator talk: a socket in the run's private folder (0700), one JSON message a
 * line, each validated where it is read. A worker joins (`hello`) and is handed its partner's plan; it sends what
 * it learns (shared with the other workers at once, in memory: no secret is on disk) and its events; before it
 * hands anything out, it asks to be brought up to date (`sync`), and the answer comes after every secret the
 * coordinator knew by then.
 */

const toCoordinator = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), version: z.number(), project: z.string() }),
  z.strictObject({ type: z.literal('learned'), secrets: z.array(scopedSecretSchema) }),
  z.strictObject({ type: z.literal('sync'), id: z.number() }),
  z.strictObject({ type: z.literal('event'), event: workerEventSchema }),
  z.strictObject({ type: z.literal('leaving'), pending: z.array(z.string()) }),
  z.strictObject({ type: z.literal('left'), probe: z.string(), outcome: leftOutcomeSchema }),
  z.strictObject({ type: z.literal('take'), probe: z.string() }),
]);
const toWorker = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('plan'), plan: partnerPlanSchema }),
  z.strictObject({ type: z.literal('refused'), reason: z.string() }),
  z.strictObject({ type: z.literal('secrets'), secrets: z.array(scopedSecretSchema) }),
  z.strictObject({ type: z.literal('synced'), id: z.number() }),
  z.strictObject({ type: z.literal('left'), probe: z.string(), outcome: leftOutcomeSchema }),
]);
export type ToCoordinator = z.infer<typeof toCoordinator>;
export type ToWorker = z.infer<typeof toWorker>;

/**
 * Where a run's channel listens: a socket in the run's private folder (a named pipe on Windows, whose sockets are not
 * files). A socket's path holds at most about 100 bytes: for a run's folder deeper than that, the socket is in a
 * private folder of its own in the system's temporary folder, whose path the run's folder holds (`channel`).
 */
export function channelPath(runDir: string): string {
  if (process.platform === 'win32') return `\\\\?\\pipe\\partner-certify-${path.basename(runDir)}`;
  const inside = path.join(runDir, 'channel.sock');
  if (Buffer.byteLength(inside) <= maxSocketPath) return inside;
  try {
    return readFileSync(path.join(runDir, 'channel'), 'utf8');
  } catch {
    return inside;
  }
}

const maxSocketPath = 100;

/** The run's channel, as its coordinator opens it: `channelPath`, made where it can be; removed as the process exits. */
function openedChannelPath(runDir: string): string {
  const inside = channelPath(runDir);
  if (process.platform === 'win32' || Buffer.byteLength(inside) <= maxSocketPath) return inside;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-certify-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const socket = path.join(dir, 'channel.sock');
  writeFileSync(path.join(runDir, 'channel'), socket, { mode: 0o600 });
  return socket;
}

/** Reads one message a line from a socket, each parsed with `schema`; a line that does not parse goes to `invalid`. */
function readLines<T>(socket: net.Socket, schema: z.ZodType<T>, onMessage: (message: T) => void, invalid: (problem: string) => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        invalid(`a message that is not JSON (${error instanceof Error ? error.message : String(error)})`);
        continue;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) onMessage(parsed.data);
      else invalid(`a message that does not parse: ${issuesOf(parsed.error)}`);
    }
  });
}

const write = (socket: net.Socket, message: ToCoordinator | ToWorker) => {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
};

/** One worker's connection, as the coordinator holds it. */
export interface WorkerLink {
  project: string | undefined;
  send(message: ToWorker): void;
}

export interface ChannelHandlers {
  /** A message of a worker, after its `hello`; `hello` itself is answered with what this returns. */
  message(link: WorkerLink, message: ToCoordinator): void;
  hello(project: string): { plan: PartnerPlan } | { refused: string };
  /** A worker's connection ended (it stopped, or died). */
  closed(link: WorkerLink): void;
  /** A message that could not be read: a harness bug or a version mix, named in the run's outcome. */
  invalid(problem: string): void;
}

/** The coordinator's side: listens until closed. */
export async function serveChannel(runDir: string, handlers: ChannelHandlers): Promise<{ close(): Promise<void>; links: ReadonlySet<WorkerLink> }> {
  const links = new Set<WorkerLink>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const link: WorkerLink = { project: undefined, send: (message) => write(socket, message) };
    links.add(link);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      links.delete(link);
      handlers.closed(link);
    });
    readLines(
      socket,
      toCoordinator,
      (message) => {
        if (message.type !== 'hello') return handlers.message(link, message);
        if (message.version !== eventsVersion)
          return link.send({ type: 'refused', reason: `this worker speaks version ${message.version}, the run ${eventsVersion}` });
        link.project = message.project;
        const answer = handlers.hello(message.project);
        link.send('plan' in answer ? { type: 'plan', plan: answer.plan } : { type: 'refused', reason: answer.refused });
      },
      (problem) => handlers.invalid(problem),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(openedChannelPath(runDir), resolve));
  server.unref();
  return {
    links,
    // The run's end: a worker still running (a global timeout) is cut off, and its open attempts did not finish.
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A worker's side of the channel, once its plan came. */
export interface Joined {
  plan: PartnerPlan;
  send(message: ToCoordinator): void;
  /** Resolves once every secret the coordinator knew when it was asked has been received. */
  sync(): Promise<void>;
  /** Each message of the coordinator's, but the answers above. */
  onMessage(listener: (message: ToWorker) => void): void;
  close(): void;
}

/** Joins the run as `project`'s worker and waits for its plan; throws, naming why, when the coordinator refuses it. */
export async function joinChannel(runDir: string, project: string): Promise<Joined> {
  const socket = net.connect(channelPath(runDir));
  const listeners: ((message: ToWorker) => void)[] = [];
  const syncs = new Map<number, () => void>();
  let nextSync = 0;
  let problem: string | undefined;
  const planned = new Promise<PartnerPlan>((resolve, reject) => {
    socket.once('error', (error) => reject(new Error(`the run's coordinator cannot be reached (${error.message})`)));
    readLines(
      socket,
      toWorker,
      (message) => {
        if (message.type === 'plan') resolve(message.plan);
        else if (message.type === 'refused') reject(new Error(`the run's coordinator refused this worker: ${message.reason}`));
        else if (message.type === 'synced') {
          syncs.get(message.id)?.();
          syncs.delete(message.id);
        } else for (const listener of listeners) listener(message);
      },
      (invalid) => (problem = invalid),
    );
  });
  socket.on('close', () => {
    for (const resolve of syncs.values()) resolve();
    syncs.clear();
  });
  write(socket, { type: 'hello', version: eventsVersion, project });
  const plan = await planned;
  socket.unref();
  return {
    plan,
    send: (message) => write(socket, message),
    sync: () => {
      if (problem) throw new Error(`the run's coordinator sent ${problem}`);
      if (socket.destroyed) return Promise.resolve();
      const id = nextSync++;
      return new Promise<void>((resolve) => {
        syncs.set(id, resolve);
        write(socket, { type: 'sync', id });
      });
    },
    onMessage: (listener) => void listeners.push(listener),
    close: () => void socket.end(),
  };
}
