// Limits per identity (docs/security.md, "What a request may carry"), each refused with 429 and
// a code. How many streams an owner keeps open at once — a tab's session stream, a run, Studio's
// feed, a streamed chat-wire turn — is counted here and given back when the stream ends, however
// it ends (sse.ts). How many wrong keys a client may try at sign-in is a window per client
// address, kept by rate-limiter-flexible. Both live in this process's memory: on Vercel, or with
// several containers, each instance counts its own.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { HttpError } from './errors';
import { envNumber } from '../runtime';

/** A positive whole number from the environment, else `fallback` (a limit of 0 would refuse everyone). */
function envCount(name: string, fallback: number): number {
  const value = Math.floor(envNumber(name) ?? 0);
  return value > 0 ? value : fallback;
}

/** STACKBONE_MAX_STREAMS_PER_OWNER (32): several tabs, each following its thread, with Studio open, stay far below it. */
function maxStreamsPerOwner(): number {
  return envCount('STACKBONE_MAX_STREAMS_PER_OWNER', 32);
}

/** STACKBONE_MAX_FAILED_SIGN_INS (10) wrong keys per client address in STACKBONE_SIGN_IN_WINDOW_SECONDS (900). */
function maxFailedSignIns(): number {
  return envCount('STACKBONE_MAX_FAILED_SIGN_INS', 10);
}

function signInWindowSeconds(): number {
  return envCount('STACKBONE_SIGN_IN_WINDOW_SECONDS', 900);
}

// On globalThis: Next bundles each route apart, and one owner's streams span several routes.
const shared = globalThis as typeof globalThis & { __stackboneOpenStreams?: Map<string, number>; __stackboneSignIns?: RateLimiterMemory };

/** One open stream of an owner's; `release` gives it back (once, however often it is called). */
export interface StreamSlot {
  release(): void;
}

/** A slot for one more open stream of `ownerId`, or 429 `too_many_streams` when it has the most it may. */
export function takeStreamSlot(ownerId: string): StreamSlot {
  const open = (shared.__stackboneOpenStreams ??= new Map());
  const max = maxStreamsPerOwner();
  const count = open.get(ownerId) ?? 0;
  if (count >= max) {
    throw new HttpError(
      'too_many_streams',
      `This identity already has ${max} streams open, the most it may (STACKBONE_MAX_STREAMS_PER_OWNER): close one (a tab, a follower) and try again.`,
    );
  }
  open.set(ownerId, count + 1);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const left = (open.get(ownerId) ?? 1) - 1;
      if (left > 0) open.set(ownerId, left);
      else open.delete(ownerId);
    },
  };
}

function signIns(): RateLimiterMemory {
  return (shared.__stackboneSignIns ??= new RateLimiterMemory({ keyPrefix: 'failed-sign-in', points: maxFailedSignIns(), duration: signInWindowSeconds() }));
}

/**
 * The client's address: the last X-Forwarded-For entry, the one the nearest proxy added (Vercel
 * sets it to the client; `next start` reached directly sets it to the peer when the client sent
 * none — and keeps one the client sent, so there the limit is only as good as that header).
 */
function clientAddress(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() || request.headers.get('x-real-ip')?.trim() || 'unknown';
}

/** 429 `too_many_sign_ins`, with Retry-After, once a client has tried maxFailedSignIns() wrong keys in the window. */
export async function checkSignInAttempts(request: Request): Promise<void> {
  const state = await signIns().get(clientAddress(request));
  if (!state || state.consumedPoints < maxFailedSignIns()) return;
  const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  throw new HttpError('too_many_sign_ins', `Too many wrong keys from this address: try again in ${retryAfter} s.`, undefined, {
    'Retry-After': String(retryAfter),
  });
}

/** Counts a wrong key against the client's address. */
export async function countFailedSignIn(request: Request): Promise<void> {
  await signIns().penalty(clientAddress(request));
}
