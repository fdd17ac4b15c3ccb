// Limits per identity and per address (docs/security.md, "What a request may carry", "The open
// web"), each refused with 429 and a code. How many streams an owner keeps open at once — a tab's
// session stream, a run, Studio's feed, a streamed chat-wire turn — is counted here and given back
// when the stream ends, however it ends (sse.ts). On the open web a browser identity costs one
// page load, so what browsers hold is also counted per client address, across identities: new
// identities an hour, open streams, runs in flight. How many wrong API keys a client may send is a
// window per address (sign-in to an account is Better Auth's, with its own limits), kept by rate-limiter-flexible. Uploads under
// way are counted per owner, like streams. All live in this process's memory: on Vercel, or with
// several containers, each instance counts its own.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { clientAddress } from './client-address';
import { HttpError } from './errors';
import { setting } from '../config';
import { isBrowserOwner } from '../runtime';

/** STACKBONE_MAX_STREAMS_PER_OWNER (32): several tabs, each following its thread, with Studio open, stay far below it. */
function maxStreamsPerOwner(): number {
  return setting('STACKBONE_MAX_STREAMS_PER_OWNER');
}

/** STACKBONE_MAX_STREAMS_PER_ADDRESS (64): the streams every browser identity from one address holds, together. */
function maxStreamsPerAddress(): number {
  return setting('STACKBONE_MAX_STREAMS_PER_ADDRESS');
}

/** STACKBONE_MAX_RUNS_PER_ADDRESS (32): the runs browsers from one address have in flight, together. */
function maxRunsPerAddress(): number {
  return setting('STACKBONE_MAX_RUNS_PER_ADDRESS');
}

/** STACKBONE_MAX_UPLOADS_IN_FLIGHT (4): a person attaching a few files at once stays below it. */
function maxUploadsInFlight(): number {
  return setting('STACKBONE_MAX_UPLOADS_IN_FLIGHT');
}

/** STACKBONE_MAX_FAILED_SIGN_INS (10) wrong keys per client address in STACKBONE_SIGN_IN_WINDOW_SECONDS (900). */
function maxFailedSignIns(): number {
  return setting('STACKBONE_MAX_FAILED_SIGN_INS');
}

function signInWindowSeconds(): number {
  return setting('STACKBONE_SIGN_IN_WINDOW_SECONDS');
}

// On globalThis: Next bundles each route apart, and one owner's streams span several routes.
const shared = globalThis as typeof globalThis & {
  __stackboneHeld?: Map<string, number>;
  __stackboneSignIns?: RateLimiterMemory;
  __stackboneNoKeysUntil?: Map<string, number>;
};

/** One stream or run held; `release` gives it back (once, however often it is called). */
export interface StreamSlot {
  release(): void;
}

/** Takes one of `key`'s places if it holds fewer than `max`; the place, or undefined when it holds them all. */
function take(key: string, max: number): StreamSlot | undefined {
  const held = (shared.__stackboneHeld ??= new Map());
  const count = held.get(key) ?? 0;
  if (count >= max) return undefined;
  held.set(key, count + 1);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      const left = (held.get(key) ?? 1) - 1;
      if (left > 0) held.set(key, left);
      else held.delete(key);
    },
  };
}

/** Both places, or neither: `second` is taken only with `first`, and a refusal leaves nothing held. */
function both(first: StreamSlot, second: () => StreamSlot): StreamSlot {
  try {
    const other = second();
    return { release: () => (first.release(), other.release()) };
  } catch (error) {
    first.release();
    throw error;
  }
}

/**
 * A slot for one more open stream of `ownerId`, or 429 `too_many_streams` when it has the most it
 * may. A browser's own identity also takes a place of its address (with `request`): 429
 * `too_many_address_streams` when the browsers from there hold the most they may together.
 */
export function takeStreamSlot(ownerId: string, request?: Request): StreamSlot {
  const max = maxStreamsPerOwner();
  const slot = take(`stream:${ownerId}`, max);
  if (!slot) {
    throw new HttpError(
      'too_many_streams',
      `This identity already has ${max} streams open, the most it may (STACKBONE_MAX_STREAMS_PER_OWNER): close one (a tab, a follower) and try again.`,
    );
  }
  if (!request || !isBrowserOwner(ownerId)) return slot;
  return both(slot, () => {
    const perAddress = maxStreamsPerAddress();
    const place = take(`stream@${clientAddress(request)}`, perAddress);
    if (!place) {
      throw new HttpError(
        'too_many_address_streams',
        `The browsers at this address already hold ${perAddress} streams open, the most they may together (STACKBONE_MAX_STREAMS_PER_ADDRESS): close a tab and try again.`,
      );
    }
    return place;
  });
}

/**
 * A place for one more run in flight started by a browser's own identity from this address, or 429
 * `too_many_address_runs`; none needed for a key or the local owner. Released when the run ends.
 */
export function takeRunSlot(ownerId: string, request: Request): StreamSlot {
  if (!isBrowserOwner(ownerId)) return { release() {} };
  const max = maxRunsPerAddress();
  const place = take(`run@${clientAddress(request)}`, max);
  if (!place) {
    throw new HttpError(
      'too_many_address_runs',
      `The browsers at this address already have ${max} turns running, the most they may together (STACKBONE_MAX_RUNS_PER_ADDRESS): wait for one to finish.`,
    );
  }
  return place;
}

/**
 * A place for one more upload of `ownerId` in flight (any owner), or 429 `too_many_uploads_in_flight`:
 * each holds a connection, a file being written and a part of the owner's quota until its body
 * has come. Released when the upload is answered.
 */
export function takeUploadSlot(ownerId: string): StreamSlot {
  const max = maxUploadsInFlight();
  const place = take(`upload:${ownerId}`, max);
  if (!place) {
    throw new HttpError(
      'too_many_uploads_in_flight',
      `This identity already has ${max} uploads under way, the most it may (STACKBONE_MAX_UPLOADS_IN_FLIGHT): wait for one to finish.`,
    );
  }
  return place;
}

function wrongKeys(): RateLimiterMemory {
  return (shared.__stackboneSignIns ??= new RateLimiterMemory({ keyPrefix: 'failed-sign-in', points: maxFailedSignIns(), duration: signInWindowSeconds() }));
}

function tooManyWrongKeys(msBeforeNext: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpError('too_many_sign_ins', `Too many wrong keys from this address: try again in ${retryAfter} s.`, undefined, {
    'Retry-After': String(retryAfter),
  });
}

/** Counts a wrong API key presented in a header against the client's address. */
export async function countWrongKey(request: Request): Promise<void> {
  const address = clientAddress(request);
  const state = await wrongKeys().penalty(address);
  // Kept where a header's key is checked without waiting (checkWrongKeyAttempts).
  if (state.consumedPoints >= maxFailedSignIns()) (shared.__stackboneNoKeysUntil ??= new Map()).set(address, Date.now() + state.msBeforeNext);
}

/**
 * 429 `too_many_sign_ins` (the code's name is from when keys were also entered at a sign-in form)
 * for a key presented in a header from an address that has tried the most wrong keys it may in the
 * window: a key is guessed as fast as requests are sent.
 */
export function checkWrongKeyAttempts(request: Request): void {
  const until = shared.__stackboneNoKeysUntil?.get(clientAddress(request));
  if (until === undefined) return;
  if (until > Date.now()) throw tooManyWrongKeys(until - Date.now());
  shared.__stackboneNoKeysUntil!.delete(clientAddress(request));
}
