// The owner of a page request (server components), by the same rule as the AG-UI wire:
// open dev mode → the local owner; otherwise an API key, or the browser's signed identity
// cookie (issued by proxy.ts).
import { headers } from 'next/headers';
import { HttpError } from './errors';
import { resolveOwner } from './owner';

/** The owner id, or null when the request carries no identity the server accepts. */
export async function pageOwner(): Promise<string | null> {
  const requestHeaders = await headers();
  try {
    return resolveOwner(new Request('http://page.invalid/', { headers: requestHeaders }), { browser: true });
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return null;
    throw error;
  }
}
