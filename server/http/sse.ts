// A text/event-stream response that flushes each event as it is produced. `slot`: the owner's
// open-stream slot (limits.ts), given back when the stream ends, fails or the client goes.
import type { StreamSlot } from './limits';

/**
 * How long the response waits for its first event before it begins anyway. A stream's costly part
 * is its start (a thread read for its snapshot, a turn begun): answered with its first event, the
 * request counts as starting while it does that, so an address's burst of streams is started a
 * few at a time like its other requests (docs/security.md, "Requests from one address").
 */
const FIRST_EVENT_WAIT_MS = 100;

export async function sseResponse<T>(
  events: AsyncIterable<T>,
  encode: (event: T) => string,
  options: { retryMs?: number; slot?: StreamSlot } = {},
): Promise<Response> {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  const release = () => options.slot?.release();
  let first: Promise<IteratorResult<T>> | undefined = iterator.next();
  let waited: ReturnType<typeof setTimeout> | undefined;
  // A failure is the stream's to report (pull), not this wait's.
  await Promise.race([first.catch(() => undefined), new Promise((resolve) => (waited = setTimeout(resolve, FIRST_EVENT_WAIT_MS)))]);
  clearTimeout(waited);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // How soon an EventSource reconnects once this response ends (browsers wait ~3 s by default).
      if (options.retryMs) controller.enqueue(encoder.encode(`retry: ${options.retryMs}\n\n`));
    },
    async pull(controller) {
      try {
        const next = first ?? iterator.next();
        first = undefined;
        const { done, value } = await next;
        if (done) {
          controller.close();
          release();
        } else controller.enqueue(encoder.encode(encode(value)));
      } catch (error) {
        controller.error(error);
        release();
      }
    },
    async cancel() {
      release();
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}
