// Store operations waiting their turn in the process, in call order, instead of at the
// database's door: SQLite takes one at a time (prisma-store.ts says why), and PostgreSQL's pool
// has a few connections, for which Prisma's interactive transactions wait only `maxWait` before
// failing (P2028 "Unable to start a transaction in the given time") — under a burst of runs a
// turn failed for want of a connection. Waiting here has no deadline: a burst is slower, never
// refused.

export type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

/** Runs the given jobs at most `size` at a time, starting them in call order; a failed job frees its place like any other. */
export function limitConcurrency(size: number): Exclusive {
  let running = 0;
  // Someone waits only while every place is taken; a place that frees goes straight to the first of them.
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running < size) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      release();
    }
  };
}
