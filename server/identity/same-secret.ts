// Whether a presented secret (an API key, CRON_SECRET) is a configured one, in constant time: a
// comparison that stops at the first differing character tells a patient caller, by its timing,
// how much of a guess was right. Both sides are hashed first, so they are the same length, as
// timingSafeEqual needs, and the secret's length is not told either.
import { createHash, timingSafeEqual } from 'node:crypto';

export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
