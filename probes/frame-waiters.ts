import type { Frame } from '@playwright/test';

/** Who waits on what reaches a frame, each woken as something arrives there. */
export type FrameWaiters = WeakMap<Frame, Set<() => void>>;

/** Wakes every waiter on `frame`. */
export const wake = (waiters: FrameWaiters, frame: Frame) => {
  for (const waiter of waiters.get(frame) ?? []) waiter();
};

/** Resolves once `done()` holds, checked each time `frame` is woken, once `given` settles, or when `timeoutMs` ran out. */
export function waitOn(waiters: FrameWaiters, frame: Frame, done: () => boolean, timeoutMs: number, given?: Promise<unknown>): Promise<void> {
  if (done()) return Promise.resolve();
  const waiting = waiters.get(frame) ?? new Set();
  waiters.set(frame, waiting);
  return new Promise((resolve) => {
    const end = () => {
      clearTimeout(timer);
      waiting.delete(check);
      resolve();
    };
    const check = () => done() && end();
    const timer = setTimeout(end, timeoutMs);
    waiting.add(check);
    given?.then(end, end);
  });
}
