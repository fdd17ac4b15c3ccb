// Answers sent as they are when small. `next start` gzips every answer whose length it is not told
// (and it drops a Content-Length a route sets), however small, and its gzip runs on Node's thread
// pool: an 11-byte health check waited for a compressor and a second trip through a busy event
// loop. Flooded, the health check's p99 halved without it (docs/internals/benchmarks.md, "Small
// answers without a compressor"). `no-transform` is what that compression leaves alone; an answer
// of 1 KB or more, which its threshold would compress anyway, still is.

/** Next's compression threshold: below it, compressing saves nothing worth a compressor. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

function isSmall(text: string): boolean {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most answers are known small without encoding them.
  return text.length * 3 < COMPRESSION_THRESHOLD_BYTES || new TextEncoder().encode(text).byteLength < COMPRESSION_THRESHOLD_BYTES;
}

/** Marks an answer whose body is `text` to be sent uncompressed when it is small. */
export function sendAsIsWhenSmall(headers: Headers, text: string): Headers {
  if (isSmall(text)) {
    const cacheControl = headers.get('Cache-Control');
    if (!cacheControl?.includes('no-transform')) headers.set('Cache-Control', cacheControl ? `${cacheControl}, no-transform` : 'no-transform');
  }
  return headers;
}

/** `Response.json`, sent uncompressed when small. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(body);
  const headers = new Headers(init.headers);
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return new Response(text, { ...init, headers: sendAsIsWhenSmall(headers, text) });
}
