// A text/event-stream response that flushes each event as it is produced. `slot`: the owner's
// open-stream slot (limits.ts), given back when the stream ends, fails or the client goes.
import type { StreamSlot } from './limits';

export function sseResponse<T>(events: AsyncIterable<T>, encode: (event: T) => string, options: { retryMs?: number; slot?: StreamSlot } = {}): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  const release = () => options.slot?.release();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // How soon an EventSource reconnects once this response ends (browsers wait ~3 s by default).
      if (options.retryMs) controller.enqueue(encoder.encode(`retry: ${options.retryMs}\n\n`));
    },
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
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
