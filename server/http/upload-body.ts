// An upload's body as it comes (docs/security.md, "What a request may carry"): read as a stream,
// never collected whole, and given up on when the client stalls — 408 upload_timeout after
// STACKBONE_UPLOAD_IDLE_SECONDS (15) without a byte, or STACKBONE_UPLOAD_SECONDS (120) in all —
// instead of holding its place for Node's five-minute request timeout. Past `maxBytes` it ends
// with the caller's refusal, and the client is read no further.
import { HttpError } from './errors';
import { setting } from '../config';

/** The request's body, ending with 408 upload_timeout when it stalls or takes too long, and with `tooLarge()` past `maxBytes`. */
export function uploadBody(request: Request, maxBytes: number, tooLarge: () => Error): ReadableStream<Uint8Array> {
  const idleMs = setting('STACKBONE_UPLOAD_IDLE_SECONDS') * 1000;
  const deadline = Date.now() + setting('STACKBONE_UPLOAD_SECONDS') * 1000;
  const reader = request.body?.getReader();
  let size = 0;
  const timedOut = (what: string) => new HttpError('upload_timeout', `The upload ${what}: send the file again.`);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) return controller.close();
      const waitMs = Math.min(idleMs, deadline - Date.now());
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timedOut(waitMs < idleMs ? 'took too long' : `sent nothing for ${idleMs / 1000} s`)), Math.max(0, waitMs));
      });
      try {
        const next = await Promise.race([reader.read(), stalled]);
        if (next.done) return controller.close();
        size += next.value.byteLength;
        if (size > maxBytes) throw tooLarge();
        controller.enqueue(next.value);
      } catch (error) {
        // Not awaited: a cancel waits for the read still pending on a stalled client, which may never come.
        void reader.cancel(error).catch(() => undefined);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
}
