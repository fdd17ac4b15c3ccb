// A minimal timed SSE reader for the bench: no schema validation and no parser stream, so that
// reading costs the client the same on both sides of a ratio. Each event's `data` is handed
// over as text with the time it arrived; the caller parses only what it needs.

export interface SseEvent {
  data: string;
  /** performance.now() when the chunk holding the event's end arrived. */
  at: number;
}

/**
 * Reads the response's events until it ends or onEvent returns true (then the connection is
 * dropped). Resolves to the time the stream ended (or was left).
 */
export async function readSse(response: Response, onEvent: (event: SseEvent) => boolean | void): Promise<number> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (true) {
      const { done, value } = await reader.read();
      const at = performance.now();
      if (done) return at;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(line[5] === ' ' ? 6 : 5))
          .join('\n');
        if (data && onEvent({ data, at })) return at;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The AG-UI event type of an event's data, without parsing all of it. */
export function agUiType(data: string): string | undefined {
  return /"type":"([A-Z_]+)"/.exec(data)?.[1];
}
