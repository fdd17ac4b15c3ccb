// How many guests one address is given an hour (docs/security.md, "The open web"): on a public
// chat (STACKBONE_WEB_ACCESS=open) a guest is one page load, so every limit counted per owner
// holds only with this one in front of it. Asked before a guest is made (server/auth/who-may-join.ts);
// kept by rate-limiter-flexible in this process's memory (per instance, as the others).
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { clientAddress } from './client-address';
import { setting } from '../config';

const shared = globalThis as typeof globalThis & { __stackboneNewIdentities?: RateLimiterMemory };

/** STACKBONE_MAX_NEW_IDENTITIES_PER_ADDRESS, default 20 an hour. */
function maxNewIdentitiesPerAddress(): number {
  return setting('STACKBONE_MAX_NEW_IDENTITIES_PER_ADDRESS');
}

function newIdentities(): RateLimiterMemory {
  return (shared.__stackboneNewIdentities ??= new RateLimiterMemory({ keyPrefix: 'new-identity', points: maxNewIdentitiesPerAddress(), duration: 3600 }));
}

/** Whether this address may be given one more identity this hour (counted if so); when not, the seconds until it may. */
export async function allowNewIdentity(request: Pick<Request, 'headers'>): Promise<{ allowed: true } | { allowed: false; retryAfter: number }> {
  try {
    await newIdentities().consume(clientAddress(request));
    return { allowed: true };
  } catch (refusal) {
    if (refusal instanceof Error) throw refusal;
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((refusal as { msBeforeNext: number }).msBeforeNext / 1000)) };
  }
}
