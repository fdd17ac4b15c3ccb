// The Waker port (docs/deploy.md, "Due work"): every write that leaves work due later — a timer set,
// an interrupt opened with an expiry or a reminder, an escalation, a run's lease taken, a notice
// written or an attempt that failed — asks to be woken at its time. On a host with a long-lived
// process the loops find that work by themselves and no waker is set; on Vercel one queue message
// per item carries it (vercel-queue-waker.ts) to POST /api/wake, which runs it
// (server/runtime/wake/run-due.ts). A wake is a hint, never the truth: the work it names is read
// from the store when it arrives, so a wake that comes early, late, twice or for work already done
// does nothing harmful.

/** What kind of due work: a timer's messages, a session's deadlines (expiry, reminder, lease), the outbox. */
export type WakeKind = 'timer' | 'session' | 'outbox';

export interface Wake {
  kind: WakeKind;
  /** Which item: a timer (timerWakeKey), a session's id, a notice's or a delivery's id (the outbox runs a pass). */
  key: string;
  /** When it is due. */
  at: Date;
}

export interface Waker {
  /** Asks for `wake` at its time; resolves once the request is accepted. A failure loses nothing the crons do not find. */
  wake(wake: Wake): Promise<void>;
}

/** A timer's wake key: its session and its key, which find it (EventStore.findTimer). */
export function timerWakeKey(sessionId: string, key: string): string {
  return JSON.stringify([sessionId, key]);
}

/** The session and key a timer's wake names; null for a key that names no timer. */
export function timerOfWakeKey(wakeKey: string): { sessionId: string; key: string } | null {
  try {
    const parsed: unknown = JSON.parse(wakeKey);
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((part) => typeof part === 'string')) return { sessionId: parsed[0], key: parsed[1] };
  } catch {
    // Not JSON: no timer.
  }
  return null;
}
