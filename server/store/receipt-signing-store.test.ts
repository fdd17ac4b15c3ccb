// The store that signs decisions (docs/approvals.md, "Signed receipts"): a decision and a vote
// appended through it are written with their receipts, which verify against the published keys
// and name the interrupt, the session's key and the arguments; the decision webhook's notice, made
// from the written event, carries the receipt.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { argsDigest, receiptKeys, verifyReceipt } from '../receipts';
import { interruptRecord } from './conformance/support';
import { createMemoryStore } from './memory-store';
import { notableEvents } from './notices';
import { receiptSigningStore } from './receipt-signing-store';

beforeAll(() => {
  vi.stubEnv('STACKBONE_SECRET', 'n'.repeat(64));
  vi.stubEnv('STACKBONE_PUBLIC_URL', 'https://desk.example.com');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('receiptSigningStore', () => {
  it('writes each vote and decision with its receipt, and the decision webhook carries it', async () => {
    const store = receiptSigningStore(createMemoryStore());
    const sessionId = `owner-1/thread-${randomUUID()}`;
    await store.ensureSession({ id: sessionId, ownerId: 'owner-1', agent: 'helpdesk' });
    const record = interruptRecord({ toolName: 'refundPayment', input: { orderId: 'po_42', amount: 120 }, quorum: 2 });
    await store.append(sessionId, 0, [{ type: 'interrupts_opened', interrupts: [record] }], { status: 'interrupted' });
    await store.append(sessionId, 1, [
      { type: 'interrupt_voted', interruptId: record.id, vote: { status: 'approved', by: { source: 'studio', ownerId: 'key:a', keyName: 'alice' } } },
    ]);
    const edit = { orderId: 'po_42', amount: 100 };
    await store.append(sessionId, 2, [
      {
        type: 'interrupt_decided',
        interruptId: record.id,
        decision: { status: 'approved', editedArgs: edit, by: { source: 'hitl', ownerId: 'key:b', keyName: 'bob' } },
      },
    ]);

    const written = (await store.readEvents(sessionId)).map(({ event }) => event);
    const vote = written[1]!.type === 'interrupt_voted' ? written[1].vote.receipt : undefined;
    const decision = written[2]!.type === 'interrupt_decided' ? written[2].decision.receipt : undefined;
    const keys = { keys: (await receiptKeys()).published };
    expect(await verifyReceipt(vote!, keys, { args: record.input })).toMatchObject({
      ok: true,
      claims: { kind: 'vote', decision: 'approved', decidedBy: 'key:alice', channel: 'studio', sessionId: sessionId.split('/')[1] },
    });
    expect(await verifyReceipt(decision!, keys, { args: edit })).toMatchObject({
      ok: true,
      claims: { kind: 'decision', interruptId: record.id, iss: 'https://desk.example.com', originalArgsDigest: argsDigest(record.input), decidedBy: 'key:bob' },
    });

    const [notice] = notableEvents(sessionId, 3, [written[2]!]);
    expect(notice).toMatchObject({ type: 'interrupt.decided', data: { decision: { receipt: decision } } });
  });

  it('refuses to write a decision on an interrupt it cannot describe, and writes nothing', async () => {
    const store = receiptSigningStore(createMemoryStore());
    const sessionId = `owner-1/thread-${randomUUID()}`;
    await store.ensureSession({ id: sessionId, ownerId: 'owner-1', agent: 'helpdesk' });
    await expect(
      store.append(sessionId, 0, [{ type: 'interrupt_decided', interruptId: 'int_nowhere', decision: { status: 'approved', by: { source: 'hitl' } } }]),
    ).rejects.toThrow('Cannot sign the decision on interrupt int_nowhere');
    expect(await store.readEvents(sessionId)).toEqual([]);
  });
});
