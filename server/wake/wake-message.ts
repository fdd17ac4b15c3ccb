// What a wake looks like as a queue message: its kind, key and time, signed with STACKBONE_SECRET
// for the purpose "wake" (server/credentials/signature.ts). The queue delivers by calling POST
// /api/wake, a public URL: the signature is how the route knows a message is one this server
// sent (docs/deploy.md, "Due work"). A copy of a real message only wakes work already due.
import { previousSecrets, sign, signedWith } from '../credentials/signature';
import { setting } from '../config';
import type { Wake, WakeKind } from './waker';

/** The queue message's body. */
export interface WakeMessage {
  kind: WakeKind;
  key: string;
  /** ISO 8601. */
  at: string;
  sig: string;
}

const KINDS: readonly WakeKind[] = ['timer', 'session', 'outbox'];

function wakeSecret(): string {
  const secret = setting('STACKBONE_SECRET');
  // The start refuses STACKBONE_WAKER=vercel-queue without it (signing-secret.ts).
  if (!secret) throw new Error('Wakes are signed with STACKBONE_SECRET, which is not set (docs/deploy.md, "Due work").');
  return secret;
}

const signedInput = (kind: string, key: string, at: string) => JSON.stringify([kind, key, at]);

export function wakeMessage(wake: Wake): WakeMessage {
  const at = wake.at.toISOString();
  return { kind: wake.kind, key: wake.key, at, sig: sign('wake', signedInput(wake.kind, wake.key, at), wakeSecret()) };
}

/** The wake a message carries when this server (under its secret or a previous one) signed it; else null. */
export function verifiedWake(body: unknown): Wake | null {
  if (typeof body !== 'object' || body === null) return null;
  const { kind, key, at, sig } = body as Partial<Record<keyof WakeMessage, unknown>>;
  if (!KINDS.includes(kind as WakeKind) || typeof key !== 'string' || typeof at !== 'string' || typeof sig !== 'string') return null;
  if (Number.isNaN(Date.parse(at))) return null;
  if (signedWith('wake', signedInput(kind as string, key, at), sig, [wakeSecret(), ...previousSecrets()]) < 0) return null;
  return { kind: kind as WakeKind, key, at: new Date(at) };
}
