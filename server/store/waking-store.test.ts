import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { timerWakeKey, type Wake } from '../wake';
import { interruptRecord } from './conformance/support';
import { createMemoryStore } from './memory-store';
import { settleWakes, wakingStore } from './waking-store';

function recorded() {
  const wakes: Wake[] = [];
  const store = wakingStore(createMemoryStore(), { wake: async (wake) => void wakes.push(wake) });
  return { store, wakes };
}

const at = (offsetMs: number) => new Date(Date.now() + offsetMs);

describe('a store that asks to be woken (docs/deploy.md, "Due work")', () => {
  it('asks for a run’s lease expiry when a run takes the session, and for nothing when an append leaves nothing due', async () => {
    const { store, wakes } = recorded();
    const session = await store.ensureSession({ id: randomUUID(), ownerId: 'owner-1', agent: 'assistant' });
    const leaseUntil = at(30_000);
    await store.append(session.id, 0, [{ type: 'run_started', runId: 'run-1', source: 'agui' }], { status: 'running', leaseUntil });
    await store.append(session.id, 1, [{ type: 'message_added', message: { id: 'm1', role: 'user', content: 'hi' } }]);
    await settleWakes();
    expect(wakes).toEqual([{ kind: 'session', key: session.id, at: leaseUntil }]);
  });

  it('asks for an opened interrupt’s expiry and reminder, an escalation’s new expiry, and the outbox at once for the notices it wrote', async () => {
    const { store, wakes } = recorded();
    const session = await store.ensureSession({ id: randomUUID(), ownerId: 'owner-1', agent: 'assistant' });
    const record = interruptRecord({ expiresAt: at(60_000).toISOString(), remindAt: at(45_000).toISOString() });
    await store.append(session.id, 0, [{ type: 'interrupts_opened', interrupts: [record] }], { status: 'interrupted' });
    await settleWakes();
    expect(wakes.filter((wake) => wake.kind === 'session').map((wake) => wake.at.toISOString())).toEqual([record.expiresAt, record.remindAt]);
    expect(wakes.filter((wake) => wake.kind === 'outbox')).toHaveLength(1);
    expect(Math.abs(wakes.find((wake) => wake.kind === 'outbox')!.at.getTime() - Date.now())).toBeLessThan(1_000);

    wakes.length = 0;
    const extended = at(120_000).toISOString();
    await store.append(session.id, 1, [
      { type: 'interrupt_escalated', interruptId: record.id, level: 1, expiresAt: extended, to: ['key:ops'], interrupt: { ...record, expiresAt: extended } },
    ]);
    await settleWakes();
    expect(wakes.filter((wake) => wake.kind === 'session')).toEqual([{ kind: 'session', key: session.id, at: new Date(extended) }]);
  });

  it('asks for a new timer at its time, once: scheduling the same key again asks for nothing', async () => {
    const { store, wakes } = recorded();
    const session = await store.ensureSession({ id: randomUUID(), ownerId: 'owner-1', agent: 'assistant' });
    const fireAt = at(10_000);
    const timer = { sessionId: session.id, key: 'remind:1', fireAt, messages: [{ id: 't.0', role: 'user' as const, content: 'Reminder' }] };
    await store.scheduleTimer(timer);
    await store.scheduleTimer({ ...timer, fireAt: at(99_000) });
    await settleWakes();
    expect(wakes).toEqual([{ kind: 'timer', key: timerWakeKey(session.id, 'remind:1'), at: fireAt }]);
  });

  it('asks for a claimed delivery when its claim runs out, and for a failed one at its next attempt', async () => {
    const { store, wakes } = recorded();
    const session = await store.ensureSession({ id: randomUUID(), ownerId: 'owner-1', agent: 'assistant' });
    await store.append(
      session.id,
      0,
      [
        { type: 'run_started', runId: 'run-1', source: 'agui' },
        { type: 'run_finished', runId: 'run-1', outcome: { type: 'success' } },
      ],
      { status: 'idle' },
    );
    const [notice] = await store.unfannedNotices();
    const now = new Date();
    await store.fanOutNotices([{ noticeId: notice!.id, targets: [{ channel: 'webhook', target: 'https://example.test' }] }], now);
    wakes.length = 0;
    const [claim] = await store.claimDueDeliveries(now, { leaseMs: 60_000 });
    const nextAttemptAt = at(2_000);
    await store.recordDeliveryAttempt(claim!.delivery.id, claim!.delivery.attempts, { status: 'failing', error: 'HTTP 500', nextAttemptAt });
    await settleWakes();
    expect(wakes).toEqual([
      { kind: 'outbox', key: claim!.delivery.id, at: new Date(now.getTime() + 60_000) },
      { kind: 'outbox', key: claim!.delivery.id, at: nextAttemptAt },
    ]);
  });

  it('keeps the write when asking fails: the crons find the work', async () => {
    const store = wakingStore(createMemoryStore(), { wake: async () => Promise.reject(new Error('queue down')) });
    const session = await store.ensureSession({ id: randomUUID(), ownerId: 'owner-1', agent: 'assistant' });
    await store.append(session.id, 0, [{ type: 'run_started', runId: 'run-1', source: 'agui' }], { status: 'running', leaseUntil: at(30_000) });
    await settleWakes();
    expect((await store.readEvents(session.id)).map((event) => event.event.type)).toEqual(['run_started']);
  });
});
