// The bench's baseline route (bench/bare-route.ts) is in every build but never served by the
// product: without STACKBONE_BENCH=1, which only `npm run bench` sets, it answers 404.
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends';

for (const backend of backends()) {
  describe(`the bench route on ${backend.kind}`, () => {
    it('is not served without STACKBONE_BENCH', async () => {
      const stream = await fetch(`${backend.url}/api/bench/bare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'reply with 5 tokens' }) });
      expect(stream.status).toBe(404);
      const read = await fetch(`${backend.url}/api/bench/bare?threadId=anything`);
      expect(read.status).toBe(404);
    });
  });
}
