// A file's bytes as they stream in (docs/models.md, "Attachments"): its first bytes read ahead
// for the type check and then sent on with the rest, and a limit that ends the stream the moment
// it is passed. Nothing here holds more than a chunk or two.

/** `bytes` as a stream of one chunk (bytes sent inline, which take the same way as an upload). */
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * Reads at least `length` bytes of `body` (fewer only when it ends), and answers them with a stream
 * of the whole body: those bytes first, then the rest as it comes.
 */
export async function readAhead(body: ReadableStream<Uint8Array>, length: number): Promise<{ head: Uint8Array; body: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size < length) {
    const next = await reader.read();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.byteLength;
  }
  const head = chunks.length === 1 ? chunks[0]! : new Uint8Array(Buffer.concat(chunks));
  let first: Uint8Array | undefined = head.byteLength > 0 ? head : undefined;
  const rest = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        controller.enqueue(first);
        first = undefined;
        return;
      }
      const next = ended ? { done: true as const } : await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head, body: rest };
}

/**
 * `body`, ending with `refusal()` as soon as more than `max` bytes have come: the source is
 * cancelled there, so a client sending more is not read any further.
 */
export function capBytes(body: ReadableStream<Uint8Array>, max: number, refusal: () => Error): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > max) controller.error(refusal());
        else controller.enqueue(chunk);
      },
    }),
  );
}
