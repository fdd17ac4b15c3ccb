// A store that signs every decision it writes (docs/approvals.md, "Signed receipts"). Every path
// a decision takes — a resume, /api/hitl, Studio, a link, MCP, an expiry's default action, a
// quorum's votes — ends in an append of `interrupt_decided` or `interrupt_voted`; signing here,
// just before that append, gives each one its receipt in one place, and the receipt is in the
// log with the decision it proves (the webhook and the audit export carry it from there).
//
// The receipt is written into the decision object itself, so the run that appended it — which
// folds its own events — holds it too, and its tool gate checks the arguments against it.
import { ownOrigin } from '../config/own-origin';
import { receiptClaims, signReceipt } from '../receipts';
import type { SessionEvent } from './events';
import type { EventStore, InterruptRow } from './types';
import { sessionKeyOfRow } from './session-key-of-row';

type Signable = Extract<SessionEvent, { type: 'interrupt_decided' | 'interrupt_voted' }>;

function unsigned(event: SessionEvent): event is Signable {
  if (event.type === 'interrupt_decided') return event.decision.receipt === undefined;
  return event.type === 'interrupt_voted' && event.vote.receipt === undefined;
}

/** Signs, in place, each decision and vote of `events` that has no receipt yet. */
async function signDecisions(store: EventStore, events: SessionEvent[]): Promise<void> {
  const toSign = events.filter(unsigned);
  if (toSign.length === 0) return;
  const decidedAt = new Date().toISOString();
  const rows = new Map<string, InterruptRow | null>();
  for (const event of toSign) {
    if (!rows.has(event.interruptId)) rows.set(event.interruptId, await store.findInterrupt(event.interruptId));
    const row = rows.get(event.interruptId);
    // Every decision is on an interrupt the store indexed when it opened; one it does not know cannot be described.
    if (!row) throw new Error(`Cannot sign the decision on interrupt ${event.interruptId}: the store has no such interrupt.`);
    // A stored session id is `<owner>/<key>` (server/runtime/session/session-id.ts); the receipt names the key, as its owner does.
    const subject = { issuer: ownOrigin(), sessionKey: sessionKeyOfRow(row), record: row.record, decidedAt };
    if (event.type === 'interrupt_decided') event.decision.receipt = await signReceipt(receiptClaims(subject, { kind: 'decision', decision: event.decision }));
    else event.vote.receipt = await signReceipt(receiptClaims(subject, { kind: 'vote', vote: event.vote }));
  }
}

export function receiptSigningStore(store: EventStore): EventStore {
  return {
    ...store,
    async append(sessionId, expectedSeq, events, options) {
      await signDecisions(store, events);
      return store.append(sessionId, expectedSeq, events, options);
    },
  };
}
