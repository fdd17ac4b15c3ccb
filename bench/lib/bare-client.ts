// The client side of the bare baseline route (bench/bare-route.ts): the same scripted model
// through AI SDK `streamText` alone, as its text stream or its SSE UI message stream.
export function bareRequest(baseUrl: string, prompt: string, format: 'text' | 'sse'): Promise<Response> {
  return fetch(`${baseUrl}/api/bench/bare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt, format }) }).then(
    (response) => {
      if (!response.ok) throw new Error(`The bare route answered ${response.status}: is the build older than bench/bare-route.ts?`);
      return response;
    },
  );
}
