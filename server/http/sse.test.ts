// A stream's response begins with its first event (server/http/sse.ts, docs/security.md, "Requests
// from one address"): its costly start counts as the request starting, up to 100 ms.
import { describe, expect, it } from 'vitest';
import { sseResponse } from './sse';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function* after(ms: number, ...events: string[]): AsyncGenerator<string> {
  await sleep(ms);
  yield* events;
}

const encode = (event: string) => `data: ${event}\n\n`;

describe('sseResponse', () => {
  it('answers once its first event is ready, and sends every event in order', async () => {
    const asked = performance.now();
    const response = await sseResponse(after(40, 'one', 'two'), encode, { retryMs: 1000 });
    expect(performance.now() - asked).toBeGreaterThanOrEqual(35);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(await response.text()).toBe('retry: 1000\n\ndata: one\n\ndata: two\n\n');
  });

  it('begins after 100 ms when nothing is ready, and the event still arrives', async () => {
    const asked = performance.now();
    const response = await sseResponse(after(400, 'late'), encode);
    const waited = performance.now() - asked;
    expect(waited).toBeGreaterThanOrEqual(95);
    expect(waited).toBeLessThan(350);
    expect(await response.text()).toBe('data: late\n\n');
  });

  it('reports a stream that fails before its first event in the body, and gives its slot back', async () => {
    let released = 0;
    async function* failing(): AsyncGenerator<string> {
      throw new Error('the store went away');
    }
    const response = await sseResponse(failing(), encode, { slot: { release: () => released++ } });
    await expect(response.text()).rejects.toThrow();
    expect(released).toBe(1);
  });
});
