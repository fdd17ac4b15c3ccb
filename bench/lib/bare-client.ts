// The client side of the bare baseline route (bench/bare-route.ts): the same scripted model
// through AI SDK `streamText` alone, as its text stream or its SSE UI message stream.
import { readSse } from './sse';
import type { StreamRun } from './stream-run';
export function bareRequest(baseUrl: string, prompt: string, format: 'text' | 'sse'): Promise<Response> {
  return fetch(`${baseUrl}/api/bench/bare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt, format }) }).then(
    (response) => {
      if (!response.ok) throw new Error(`The bare route answered ${response.status}: is the build older than bench/bare-route.ts?`);
      return response;
    },
  );
}

/** The bare route's SSE UI message stream of a reply to `prompt`. */
export async function bareSseRun(baseUrl: string, prompt: string): Promise<StreamRun> {
  const sent = performance.now();
  const response = await bareRequest(baseUrl, prompt, 'sse');
  let firstTokenMs = NaN;
  let deltas = 0;
  const ended = await readSse(response, ({ data, at }) => {
    if (data.includes('"type":"text-delta"') && deltas++ === 0) firstTokenMs = at - sent;
  });
  return { firstTokenMs, totalMs: ended - sent, deltas };
}
