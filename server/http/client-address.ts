// The client's address, for the limits counted per address (docs/security.md, "The client's
// address"). Its own file: proxy.ts reads it too, and must not pull the runtime in with it.

/**
 * The last X-Forwarded-For entry, the one the nearest proxy added. Vercel sets it to the client;
 * another proxy (nginx, a load balancer) appends the peer it saw; `next start` reached directly
 * sets it to the peer when the client sent none — and keeps one the client sent, so a server on
 * the open web needs a proxy in front for any per-address limit to hold.
 */
export function clientAddress(request: Pick<Request, 'headers'>): string {
  return request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() || request.headers.get('x-real-ip')?.trim() || 'unknown';
}
