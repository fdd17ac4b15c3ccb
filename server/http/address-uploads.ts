// How many bytes of files the browsers of one address may upload an hour, together (docs/security.md,
// "The open web"). Each browser identity has a quota of its own, and on the open web an identity
// costs a page load: without this, one address could fill twenty identities' quotas every hour.
// Checked before an upload is read and counted once it is stored, so uploads under way at the same
// moment may pass it together — at most the address's identities' uploads in flight, each within
// one file's size limit. Kept by rate-limiter-flexible in this process's memory, as the others.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { clientAddress } from './client-address';
import { HttpError } from './errors';
import { setting } from '../config';
import { isBrowserOwner } from '../runtime';

const shared = globalThis as typeof globalThis & { __stackboneAddressUploads?: { max: number; limiter: RateLimiterMemory } };

/** STACKBONE_MAX_UPLOAD_BYTES_PER_ADDRESS, 100 MB an hour by default; a new value starts a new count. */
function addressUploads(): { max: number; limiter: RateLimiterMemory } {
  const max = setting('STACKBONE_MAX_UPLOAD_BYTES_PER_ADDRESS');
  if (shared.__stackboneAddressUploads?.max !== max) {
    shared.__stackboneAddressUploads = { max, limiter: new RateLimiterMemory({ keyPrefix: 'address-upload-bytes', points: max, duration: 3600 }) };
  }
  return shared.__stackboneAddressUploads;
}

/** 429 `too_many_address_uploads`, with Retry-After, when a browser's address has uploaded its hour's bytes. Keys and the local owner: never. */
export async function checkAddressUploads(ownerId: string, request: Request): Promise<void> {
  if (!isBrowserOwner(ownerId)) return;
  const { max, limiter } = addressUploads();
  const state = await limiter.get(clientAddress(request));
  if (!state || state.consumedPoints < max) return;
  const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  throw new HttpError(
    'too_many_address_uploads',
    `The browsers at this address have uploaded ${Math.round(max / 1024 / 1024)} MB of files this hour, the most they may together (STACKBONE_MAX_UPLOAD_BYTES_PER_ADDRESS): try again in ${retryAfter} s.`,
    undefined,
    { 'Retry-After': String(retryAfter) },
  );
}

/** Counts a stored upload's bytes against its browser's address. */
export async function countAddressUpload(ownerId: string, request: Request, bytes: number): Promise<void> {
  if (!isBrowserOwner(ownerId) || bytes <= 0) return;
  await addressUploads().limiter.penalty(clientAddress(request), bytes);
}
