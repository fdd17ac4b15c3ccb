// Who wakes due work (docs/deploy.md, "Due work"), as STACKBONE_WAKER chooses.
import { setting } from '../config';
import { vercelQueueWaker } from './vercel-queue-waker';
import type { Waker } from './waker';

export type { Wake, Waker } from './waker';
export { timerOfWakeKey, timerWakeKey } from './waker';
export { verifiedWake } from './wake-message';
export { sendWake, wakeQueue } from './vercel-queue-waker';

/** The configured waker; null for `loop`, where the in-process loops find due work by themselves (server/boot). */
export function configuredWaker(): Waker | null {
  return setting('STACKBONE_WAKER') === 'vercel-queue' ? vercelQueueWaker : null;
}
