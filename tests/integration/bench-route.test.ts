// The bench's baseline route (bench/bare-route.ts) is only in the bench's own build, made with
// STACKBONE_BENCH=1 (next.config.ts, docs/internals/benchmarks.md): the product's build, which these servers
// run, has no such route. Its handlers' own rules are checked in tests/unit/bench-route.test.ts.
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends';

for (const backend of backends()) {
  describe(`the product's build on ${backend.kind}`, () => {
    it('has no bench route', async () => {
      const stream = await fetch(`${backend.url}/api/bench/bare`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'reply with 5 tokens' }),
      });
      expect(stream.status).toBe(404);
      const read = await fetch(`${backend.url}/api/bench/bare?threadId=anything`);
      expect(read.status).toBe(404);
    });
  });
}
