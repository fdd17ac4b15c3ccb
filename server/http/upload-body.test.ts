// An upload's body given up when its client stalls (docs/security.md, "What a request may carry"):
// 408 upload_timeout after STACKBONE_UPLOAD_IDLE_SECONDS without a byte, or STACKBONE_UPLOAD_SECONDS
// in all, however steadily a slow client trickles; and the caller's refusal past its bytes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from './errors';
import { uploadBody } from './upload-body';

/** A request whose body sends `chunks`, one every `everyMs`, then waits forever. */
function trickling(chunks: number, everyMs: number): { request: Request; cancelled: () => boolean } {
  let sent = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= chunks) return new Promise(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      sent++;
      controller.enqueue(new Uint8Array(100));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { request: new Request('http://localhost/', { method: 'POST', body, duplex: 'half' } as RequestInit), cancelled: () => cancelled };
}

const tooLarge = () => new HttpError('attachment_too_large', 'too large');
const drain = (body: ReadableStream<Uint8Array>) => new Response(body).arrayBuffer();

describe('an upload body', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('ends with 408 upload_timeout once its client sends nothing for the idle time, and lets go of the client', async () => {
    vi.stubEnv('STACKBONE_UPLOAD_IDLE_SECONDS', '0.3');
    const { request, cancelled } = trickling(3, 10);
    const startedAt = Date.now();
    await expect(drain(uploadBody(request, 10_000, tooLarge))).rejects.toMatchObject({ code: 'upload_timeout', status: 408 });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(300);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(cancelled()).toBe(true);
  });

  it('ends with upload_timeout at its deadline however steadily a slow client trickles', async () => {
    vi.stubEnv('STACKBONE_UPLOAD_IDLE_SECONDS', '10');
    vi.stubEnv('STACKBONE_UPLOAD_SECONDS', '0.5');
    const { request } = trickling(1_000, 50);
    await expect(drain(uploadBody(request, 1_000_000, tooLarge))).rejects.toMatchObject({
      code: 'upload_timeout',
      message: expect.stringContaining('took too long'),
    });
  });

  it('ends with the caller’s refusal past its bytes, and passes a body within them through', async () => {
    await expect(drain(uploadBody(trickling(5, 1).request, 250, tooLarge))).rejects.toMatchObject({ code: 'attachment_too_large' });
    const whole = new Request('http://localhost/', { method: 'POST', body: new Uint8Array(300) });
    expect((await drain(uploadBody(whole, 300, tooLarge))).byteLength).toBe(300);
  });
});
