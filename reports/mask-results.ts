import { existsSync } from 'node:fs';
import type { TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import { redactBytes, redactFile } from '../redaction/files';
import { redact, redactValue } from '../redaction/redact';
import type { Secret } from '../redaction/secrets';

/**
 * Masks, in place, what Playwright hands its reporters: step titles and their API arguments, errors,
 * annotations, output and attachments (inline bodies and files such as traces). The certification
 * reporter runs first, so the list, HTML, JUnit, JSON and blob reporters after it see only masked objects.
 * Each object is masked once, however many callbacks reach it.
 */
export class ResultMasker {
  private readonly masked = new WeakSet<object>();

  stepBegun(step: TestStep, secrets: readonly Secret[]) {
    step.title = redact(step.title, secrets);
    // Playwright's API steps carry their arguments (a URL with a code, a typed password) for its reports.
    const internal = step as TestStep & { subtitle?: string; params?: Record<string, unknown> };
    if (internal.subtitle) internal.subtitle = redact(internal.subtitle, secrets);
    if (internal.params) internal.params = redactValue(internal.params, secrets);
  }

  stepEnded(step: TestStep, result: TestResult, secrets: readonly Secret[]) {
    if (step.error) this.error(step.error, secrets);
    for (const annotation of step.annotations) if (annotation.description) annotation.description = redact(annotation.description, secrets);
    this.attachments(result, secrets);
  }

  error(error: TestError, secrets: readonly Secret[]) {
    if (this.masked.has(error)) return;
    this.masked.add(error);
    for (const key of ['message', 'stack', 'value', 'snippet'] as const) if (typeof error[key] === 'string') error[key] = redact(error[key], secrets);
    if (error.cause) this.error(error.cause, secrets);
  }

  test(test: TestCase, result: TestResult, secrets: readonly Secret[]) {
    for (const error of result.errors) this.error(error, secrets);
    if (result.error) this.error(result.error, secrets);
    for (const annotation of [...result.annotations, ...test.annotations])
      if (annotation.description) annotation.description = redact(annotation.description, secrets);
    for (const output of [result.stdout, result.stderr]) {
      output.forEach((chunk, index) => (output[index] = typeof chunk === 'string' ? redact(chunk, secrets) : Buffer.from(redactBytes(chunk, secrets))));
    }
    this.attachments(result, secrets);
  }

  /** Inline bodies now; files (traces, screenshots) too, before any reporter copies them at its end. */
  private attachments(result: TestResult, secrets: readonly Secret[]) {
    for (const attachment of result.attachments) {
      if (this.masked.has(attachment)) continue;
      this.masked.add(attachment);
      if (attachment.body) attachment.body = Buffer.from(redactBytes(attachment.body, secrets));
      if (attachment.path && existsSync(attachment.path)) {
        try {
          redactFile(attachment.path, secrets);
        } catch (error) {
          console.error(`could not mask ${attachment.path}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
  }
}
