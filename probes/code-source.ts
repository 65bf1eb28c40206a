/** Hands out fresh one-time authorization codes. */
export interface CodeSource {
  next(): Promise<string>;
  /** Where the partner's app sent the user with this code, whole (its other parameters too), when the source saw it. */
  addressOf?(code: string): string | undefined;
  /**
   * Why each code request asked again since the last call ("answered 500", "timed out"), each handed over once:
   * whichever test takes them reports them (fixtures/harness.ts), so the run's report counts every retry once.
   */
  takeRetries?(): string[];
  close?(): Promise<void>;
}

/**
 * Told of each code the moment it arrives, before it is handed out or waits as the code minted ahead: the
 * redactor must know a code before any response can echo it. A mint hook's source also tells it every code an
 * answer it does not use carries (a 500 or a redirect quoting the code it minted), before its error is thrown.
 */
export type CodeReceived = (code: string) => void;
