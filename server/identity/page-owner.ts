// The caller of a page request (server components), by the same rule as the app's endpoints
// (owner.ts): a member, a guest (made by proxy.ts), or open dev mode's local owner.
import { headers } from 'next/headers';
import { cache } from 'react';
import { HttpError } from '../http/errors';
import { resolveCaller, type Caller } from './owner';

/**
 * The caller, or null when the request carries no identity the server accepts. Once per request
 * (React's cache): the layout and the page both ask, and a signed-in user is a database read.
 */
export const pageCaller = cache(async (): Promise<Caller | null> => {
  const requestHeaders = await headers();
  try {
    return await resolveCaller(new Request('http://page.invalid/', { headers: requestHeaders }), { browser: true });
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return null;
    throw error;
  }
});

/** The owner id, or null when the request carries no identity the server accepts. */
export async function pageOwner(): Promise<string | null> {
  return (await pageCaller())?.ownerId ?? null;
}
