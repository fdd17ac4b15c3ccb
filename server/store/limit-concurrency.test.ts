import { describe, expect, it } from 'vitest';
import { limitConcurrency } from './limit-concurrency';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('limitConcurrency', () => {
  it('runs at most `size` jobs at once, starts the rest in call order, and a failed job frees its place', async () => {
    const limit = limitConcurrency(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const job = (index: number) =>
      limit(async () => {
        started.push(index);
        running++;
        most = Math.max(most, running);
        await tick();
        running--;
        if (index % 4 === 0) throw new Error(`job ${index} failed`);
        return index;
      });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => job(index)));
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(5);
    expect(results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))).toHaveLength(15);
  });
});
