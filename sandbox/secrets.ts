import { timingSafeEqual } from 'node:crypto';

/** Compares a presented secret in constant time, so its length is the only thing a timing reveals. */
export function equalSecrets(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
