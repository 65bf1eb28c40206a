import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type TestInfo } from '@playwright/test';
import { redactBytes } from '../redaction/files';
import { maskAccountNumbers, redact } from '../redaction/redact';
import type { Secret } from '../redaction/secrets';
import type { Vault } from '../redaction/vault';
import type { ToCoordinator } from './channel';
import { saidAttachment, type AttemptSaid, type WorkerEvent } from './events';
import type { LeftOutcome } from './plan';

/**
 * The one way out of the run (DESIGN §6, "one egress"): the only code that writes a file, prints a line, or hands
 * Playwright or the run's channel anything. Everything passes one masking step here, with what the run knows at
 * that moment: the vault's view for the scope (a partner's own secrets, the harness's, and every partner's
 * run-wide ones: redaction/vault.ts). Nothing is masked anywhere else, and nothing is rewritten afterwards: the
 * run's final scan (run/scan.ts) only detects.
 *
 * Data is masked string by string, never as text over a document, so no secret can rewrite a key or the
 * structure; strings under `url` and `body` (an exchange's) also lose long digit runs (bank accounts, tax ids).
 * A document is written by handing the egress the data and a renderer: the renderer sees the data masked and
 * adds only the harness's own words (the verdict, rule ids), which no partner's value can rewrite.
 */
export class Egress {
  constructor(
    private readonly vault: Vault,
    private readonly scope?: string,
    /** The run's channel, in a worker: what it sends the coordinator, and how it catches up with the others (run/channel.ts). */
    private readonly channel: Outbound = { send: () => {}, sync: async () => {} },
  ) {}

  /** The same egress for another scope: a partner's artifacts, or the run's own (`undefined`: every partner's). */
  for(scope: string | undefined): Egress {
    return new Egress(this.vault, scope, this.channel);
  }

  /** What the egress masks with, now: the scope's own (a partner's, and the harness's), and every partner's run-wide ones. */
  private get secrets(): readonly Secret[] {
    return this.vault.masking(this.scope);
  }

  private get runWide(): readonly Secret[] {
    return this.vault.runWide();
  }

  /** A text as it may leave the run. */
  private text(text: string): string {
    return redact(text, this.secrets, this.runWide);
  }

  /** Data as it may leave the run: every string masked; keys, numbers and structure untouched. */
  private data<T>(value: T): T {
    const [secrets, runWide] = [this.secrets, this.runWide];
    const walk = (node: unknown, key: string): unknown => {
      if (typeof node === 'string') {
        const masked = redact(node, secrets, runWide);
        return key === 'url' || key === 'body' ? maskAccountNumbers(masked) : masked;
      }
      if (Array.isArray(node)) return node.map((child) => walk(child, key));
      if (node instanceof Uint8Array) return node;
      if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, child]) => [k, walk(child, k)]));
      return node;
    };
    return walk(value, '') as T;
  }

  /** An error whose message may leave the run, to throw: its stack would only point into the harness. */
  error(message: string): Error {
    const error = new Error(this.text(message));
    error.stack = error.message;
    return error;
  }

  /** A digest of data as it may leave the run (a profile's, which two shards of one run share): its secrets masked first. */
  digest(value: unknown): string {
    const sorted = (node: unknown): unknown =>
      Array.isArray(node)
        ? node.map(sorted)
        : node && typeof node === 'object'
          ? Object.fromEntries(
              Object.entries(node)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([k, v]) => [k, sorted(v)]),
            )
          : node;
    return createHash('sha256')
      .update(JSON.stringify(sorted(this.data(value))))
      .digest('hex');
  }

  /** Prints a line to standard output. */
  print(line: string): void {
    process.stdout.write(`${this.text(line)}\n`);
  }

  /** Prints a line to standard error. */
  warn(line: string): void {
    process.stderr.write(`${this.text(line)}\n`);
  }

  /**
   * Writes files rendered from `data`: the renderer is handed the data masked, and returns each file's content by
   * name (written in that order, in `dir`; null removes a file left there before); returns what was written. The
   * renderer's own words are not masked.
   */
  async writeFiles<T, Name extends string>(
    dir: string,
    data: T,
    render: (masked: T) => Promise<Record<Name, string | null>> | Record<Name, string | null>,
  ): Promise<Record<Name, string | null>> {
    const files = await render(this.data(data));
    mkdirSync(dir, { recursive: true });
    for (const [name, content] of Object.entries<string | null>(files)) {
      if (content === null) rmSync(path.join(dir, name), { force: true });
      else writeFileSync(path.join(dir, name), content);
    }
    return files;
  }

  /** Writes one file rendered from `data` masked (the renderer's own words are not), private to the run (0600) when `private` says so. */
  writeFile<T>(file: string, data: T, render: (masked: T) => string, { private: own = false } = {}): void {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, render(this.data(data)), own ? { mode: 0o600 } : {});
  }

  /** Writes a file of bytes (a trace, a screenshot) masked; returns where. */
  writeBytes(file: string, bytes: Uint8Array): string {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, redactBytes(bytes, this.secrets, this.runWide));
    return file;
  }

  // ---- a worker's: what a test hands Playwright and the coordinator, each brought up to date with the run first

  /** Once the worker's set-up has read the test user's data, and with every secret the run knew when asked. */
  private async upToDate(): Promise<void> {
    await this.channel.setUp?.();
    await this.channel.sync();
  }

  /**
   * A worker event for the coordinator (run/events.ts), masked as data but for the attempt it is of: Playwright's own
   * identifiers, which no partner wrote, and which may read like a tax id (the test id `…d24-8482225f…`).
   */
  async event(event: WorkerEvent): Promise<void> {
    await this.channel.sync(); // an attempt's status and Playwright's errors: not waiting for the set-up
    this.channel.send({ type: 'event', event: { ...this.data(event), project: event.project, testId: event.testId, retry: event.retry } });
  }

  /** What an attempt said: attached to its test (for every reporter, and a merge of blob reports) and sent to the coordinator, masked once. */
  async said(testInfo: TestInfo, attempt: { project: string; testId: string; retry: number }, said: AttemptSaid): Promise<void> {
    await this.upToDate();
    const masked = { ...this.data(said), stamp: said.stamp }; // the run's own id and the profile's digest, masked already
    await testInfo.attach(saidAttachment, { body: JSON.stringify(masked, null, 2), contentType: 'application/json' });
    this.channel.send({ type: 'event', event: { type: 'attempt-said', ...attempt, said: masked } });
  }

  /** A probe's outcome this worker finished for the next one of its partner (run/handover.ts), masked. */
  async leave(probe: string, outcome: LeftOutcome): Promise<void> {
    await this.channel.sync(); // to the coordinator, in memory: the next worker hands it out, once its own set-up is done
    this.channel.send({ type: 'left', probe, outcome: this.data(outcome) });
  }

  /** A file attachment of the test's (a screen, a trace), masked, written in the test's output folder. */
  async attachFile(testInfo: TestInfo, name: string, file: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.upToDate();
    await testInfo.attach(name, { path: this.writeBytes(testInfo.outputPath(file), bytes), contentType });
  }

  /** An annotation of the test's result. */
  async annotate(testInfo: TestInfo, type: string, description: string): Promise<void> {
    await this.upToDate();
    testInfo.annotations.push({ type, description: this.text(description) });
  }

  /** Ends the test as skipped, saying why. */
  async skip(reason: string): Promise<never> {
    await this.upToDate();
    test.skip(true, this.text(reason));
    throw new Error('unreachable: test.skip throws');
  }

  /** The error a test fails with. */
  async failure(message: string): Promise<Error> {
    await this.upToDate();
    return this.error(message);
  }

  /**
   * The failed rules as an assertion's error, which JUnit counts as a failure of the test, not an error of the
   * harness (CI dashboards count failures).
   */
  async ruleFailure(rules: readonly string[], message: string): Promise<Error> {
    await this.upToDate();
    try {
      expect([...rules], this.text(message)).toEqual([]);
    } catch (error) {
      if (error instanceof Error) {
        error.stack = error.message;
        return error;
      }
    }
    return this.error(message);
  }

  /** Steps of the test, one a title, at the test's own location (Playwright would otherwise capture a stack for each). */
  async steps(testInfo: TestInfo, titles: readonly string[]): Promise<void> {
    await this.upToDate();
    const location = { file: testInfo.file, line: testInfo.line, column: testInfo.column };
    for (const title of titles) await test.step(this.text(title), () => {}, { location });
  }

  /**
   * What this process prints from now on, and the errors it leaves unhandled (a browser route's handler that threw),
   * masked: Playwright hands both to every reporter as the test's (the worker's own listeners read an unhandled
   * error as it is raised, so it is masked in place before them). Returns the undo.
   */
  guardOutput(): () => void {
    const undo = [process.stdout, process.stderr].map((stream) => {
      const write = stream.write.bind(stream);
      stream.write = (chunk: string | Uint8Array, ...rest: never[]) => write(typeof chunk === 'string' ? this.text(chunk) : chunk, ...rest);
      return () => (stream.write = write);
    });
    const maskInPlace = (reason: unknown) => {
      if (!(reason instanceof Error)) return;
      reason.message = this.text(reason.message);
      if (reason.stack !== undefined) reason.stack = this.text(reason.stack);
    };
    process.prependListener('uncaughtException', maskInPlace).prependListener('unhandledRejection', maskInPlace);
    return () => {
      undo.forEach((restore) => restore());
      process.removeListener('uncaughtException', maskInPlace).removeListener('unhandledRejection', maskInPlace);
    };
  }
}

/** How a worker's egress reaches the coordinator (run/channel.ts). */
export interface Outbound {
  send(message: ToCoordinator): void;
  /** Resolves once the vault holds what every process of the run had learned when it was called. */
  sync(): Promise<void>;
  /** Resolves once the worker's set-up has read what it reads of the partner (the test user's data), however it ended. */
  setUp?(): Promise<void>;
}
