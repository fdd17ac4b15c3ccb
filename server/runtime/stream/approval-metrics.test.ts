// Studio's approval metrics (docs/studio.md, "Approval metrics") over hand-built event logs on the
// in-memory store, each event dated by the clock at its append: the windows hold the approvals
// asked in them, an edit is not an approval, an expiry and a withdrawal count but take no time to
// decide, the median and p95 are nearest ranks, a fork's copied history counts once, and each
// caller sees what the inbox shows them.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { interruptRecord } from '../../store/conformance/support';
import { createMemoryStore } from '../../store/memory-store';
import type { Decision, DecisionActor, InterruptRecord } from '../../store/pauses';
import type { SessionEvent } from '../../store/events';
import type { EventStore } from '../../store/types';
import { approvalMetrics } from './approval-metrics';

const NOW = Date.parse('2027-03-15T12:00:00.000Z');
const SECOND = 1_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OWNER: DecisionActor & { ownerId: string } = { source: 'studio', ownerId: 'key:desk', credential: 'key' };
const person: Decision['by'] = { source: 'studio', ownerId: OWNER.ownerId, credential: 'key' };

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

/** Appends `events` to a session (made on its first write) as if at `at`, the time the store stamps them with. */
async function appendAt(store: EventStore, sessionId: string, at: number, events: SessionEvent[], ownerId: string) {
  vi.setSystemTime(at);
  const session = await store.getSession(sessionId);
  await store.append(sessionId, session?.headSeq ?? 0, events, session ? {} : { create: { ownerId, agent: 'helpdesk' } });
}

interface Asked {
  record?: Partial<InterruptRecord>;
  /** When it was asked, back from NOW. */
  ago: number;
  /** How long after it was asked it was decided, and how; undecided when absent. */
  decided?: { after: number; decision: Omit<Decision, 'by'> & { by?: Decision['by'] } };
  ownerId?: string;
}

/** One approval in a session of its own: opened, and decided if said. Answers its session's id. */
async function ask(store: EventStore, { record, ago, decided, ownerId = OWNER.ownerId }: Asked): Promise<string> {
  const sessionId = `${ownerId}/${randomUUID()}`;
  const opened = interruptRecord({ agent: 'helpdesk', toolName: 'refundPayment', ...record });
  await appendAt(store, sessionId, NOW - ago, [{ type: 'interrupts_opened', interrupts: [opened] }], ownerId);
  if (decided)
    await appendAt(
      store,
      sessionId,
      NOW - ago + decided.after,
      [{ type: 'interrupt_decided', interruptId: opened.id, decision: { by: person, ...decided.decision } }],
      ownerId,
    );
  return sessionId;
}

const metricsAt = (store: EventStore, actor = OWNER) => approvalMetrics(store, actor, () => ({}), new Date(NOW));

describe('approval metrics', () => {
  it('counts each outcome per tool in the window it was asked in; times are of what a person decided', async () => {
    const store = createMemoryStore();
    const refund = { toolName: 'refundPayment' };
    const close = { toolName: 'closeTicket' };
    await ask(store, { record: refund, ago: 1 * DAY, decided: { after: 10 * SECOND, decision: { status: 'approved' } } });
    await ask(store, { record: refund, ago: 2 * DAY, decided: { after: 30 * SECOND, decision: { status: 'approved', editedArgs: { amount: 5 } } } });
    await ask(store, { record: close, ago: 3 * DAY, decided: { after: 20 * SECOND, decision: { status: 'denied', reason: 'not yet' } } });
    // Nobody decided in a day: the default action, by the expiry — an expiry, whatever it did, and no time of a person's.
    await ask(store, {
      record: close,
      ago: 3 * DAY,
      decided: { after: DAY, decision: { status: 'denied', expired: true, by: { source: 'expiry' } } },
    });
    await ask(store, {
      record: { toolName: 'lookupOrder' },
      ago: 6 * DAY,
      decided: { after: DAY, decision: { status: 'approved', expired: true, by: { source: 'expiry' } } },
    });
    await ask(store, { record: close, ago: 4 * DAY, decided: { after: 5 * SECOND, decision: { status: 'cancelled' } } });
    // Asked ten days ago: the 30 days' only. Forty days ago: neither's.
    await ask(store, { record: close, ago: 10 * DAY, decided: { after: 40 * SECOND, decision: { status: 'approved' } } });
    await ask(store, { record: refund, ago: 40 * DAY, decided: { after: 50 * SECOND, decision: { status: 'approved' } } });
    // A question is not an approval.
    await ask(store, { record: { reason: 'input_required', toolName: 'askUser' }, ago: DAY, decided: { after: SECOND, decision: { status: 'approved' } } });

    const metrics = await metricsAt(store);
    const [week, month] = metrics.windows;
    expect(week).toEqual({
      days: 7,
      since: new Date(NOW - 7 * DAY).toISOString(),
      // 10 s, 20 s and 30 s: the median is the second, the 95th percentile the third.
      timeToDecide: { decisions: 3, medianMs: 20 * SECOND, p95Ms: 30 * SECOND },
      tools: [
        { agent: 'helpdesk', toolName: 'closeTicket', counts: { approved: 0, edited: 0, rejected: 1, expired: 1, cancelled: 1 }, total: 3 },
        { agent: 'helpdesk', toolName: 'refundPayment', counts: { approved: 1, edited: 1, rejected: 0, expired: 0, cancelled: 0 }, total: 2 },
        { agent: 'helpdesk', toolName: 'lookupOrder', counts: { approved: 0, edited: 0, rejected: 0, expired: 1, cancelled: 0 }, total: 1 },
      ],
    });
    expect(month!.timeToDecide).toEqual({ decisions: 4, medianMs: 20 * SECOND, p95Ms: 40 * SECOND });
    expect(month!.tools[0]).toEqual({
      agent: 'helpdesk',
      toolName: 'closeTicket',
      counts: { approved: 1, edited: 0, rejected: 1, expired: 1, cancelled: 1 },
      total: 4,
    });
    expect(month!.tools.find((tool) => tool.toolName === 'refundPayment')!.total).toBe(2);
    expect(metrics.pending).toBe(0);
    expect(metrics.capped).toBe(false);
  });

  it('takes the median and the 95th percentile by nearest rank', async () => {
    const store = createMemoryStore();
    // Twenty decisions taking 1 s to 20 s, asked in any order.
    for (const seconds of [7, 3, 20, 1, 15, 9, 12, 2, 19, 4, 18, 6, 11, 5, 16, 8, 13, 10, 17, 14])
      await ask(store, { ago: HOUR, decided: { after: seconds * SECOND, decision: { status: 'approved' } } });
    expect((await metricsAt(store)).windows[0]!.timeToDecide).toEqual({ decisions: 20, medianMs: 10 * SECOND, p95Ms: 19 * SECOND });

    const single = createMemoryStore();
    await ask(single, { ago: HOUR, decided: { after: 42 * SECOND, decision: { status: 'denied' } } });
    expect((await metricsAt(single)).windows[0]!.timeToDecide).toEqual({ decisions: 1, medianMs: 42 * SECOND, p95Ms: 42 * SECOND });
    expect((await metricsAt(createMemoryStore())).windows[0]!.timeToDecide).toEqual({ decisions: 0, medianMs: null, p95Ms: null });
  });

  it('lists what waits now, longest first, but not what is past its expiry', async () => {
    const store = createMemoryStore();
    const recent = await ask(store, { record: { toolName: 'closeTicket', message: 'Close ticket T-9' }, ago: HOUR });
    const oldest = await ask(store, { record: { message: 'Refund $12.00 on order po_7' }, ago: 5 * DAY });
    // Taking its default action: the sweep has not come round yet.
    await ask(store, { record: { expiresAt: new Date(NOW - 1_000).toISOString() }, ago: 2 * HOUR });
    await ask(store, { ago: 3 * HOUR, decided: { after: SECOND, decision: { status: 'approved' } } });

    const metrics = await metricsAt(store);
    expect(metrics.pending).toBe(2);
    expect(metrics.slowest).toEqual([
      expect.objectContaining({
        sessionId: oldest.split('/')[1],
        ownSession: true,
        sessionAgent: 'helpdesk',
        toolName: 'refundPayment',
        message: 'Refund $12.00 on order po_7',
        waitingMs: 5 * DAY,
      }),
      expect.objectContaining({ sessionId: recent.split('/')[1], toolName: 'closeTicket', waitingMs: HOUR }),
    ]);
  });

  it("sees what the inbox shows: a key's own and the browsers' kept for key holders; a browser its own alone", async () => {
    const store = createMemoryStore();
    const browser = `browser:${randomUUID()}`;
    await ask(store, { ago: HOUR, decided: { after: SECOND, decision: { status: 'approved' } } });
    await ask(store, { ago: HOUR, ownerId: browser, record: { approvers: 'key-holders', toolName: 'kept' } });
    await ask(store, {
      ago: HOUR,
      ownerId: browser,
      record: { approvers: 'key-holders', toolName: 'kept' },
      decided: { after: SECOND, decision: { status: 'denied' } },
    });
    // Another key's session, and a call kept for finance: neither is this desk's to see.
    await ask(store, { ago: HOUR, ownerId: 'key:other', decided: { after: SECOND, decision: { status: 'approved' } } });
    await ask(store, { ago: HOUR, ownerId: browser, record: { approvers: ['key:finance'], toolName: 'financeOnly' } });

    const desk = await metricsAt(store);
    expect(desk.pending).toBe(1);
    expect(desk.slowest.map((open) => [open.toolName, open.ownSession])).toEqual([['kept', false]]);
    expect(desk.windows[0]!.tools.map((tool) => [tool.toolName, tool.total])).toEqual([
      ['kept', 1],
      ['refundPayment', 1],
    ]);

    const customer = await metricsAt(store, { source: 'agui', ownerId: browser, credential: 'browser' });
    expect(customer.pending).toBe(2);
    expect(customer.windows[0]!.tools.map((tool) => tool.toolName)).toEqual(['kept']);
  });

  it("counts a fork's copied decisions once, in the thread they were made in, and the fork's own after it", async () => {
    const store = createMemoryStore();
    const original = interruptRecord({ toolName: 'closeTicket' });
    const originalId = await ask(store, { record: original, ago: 2 * HOUR, decided: { after: 30 * SECOND, decision: { status: 'approved' } } });
    // The fork's log as forkPrefix writes it (docs/time-travel.md): the decided interrupt copied under a new id, then thread_forked.
    const copy = { ...original, id: `int_${randomUUID()}` };
    const fork = `${OWNER.ownerId}/${randomUUID()}`;
    await appendAt(
      store,
      fork,
      NOW - HOUR,
      [
        { type: 'interrupts_opened', interrupts: [copy] },
        { type: 'interrupt_decided', interruptId: copy.id, decision: { status: 'approved', by: person } },
        { type: 'thread_forked', from: { threadId: originalId.split('/')[1]!, atMessageId: 'm1', mode: 'fork', throughSeq: 2 }, inherited: [] },
      ],
      OWNER.ownerId,
    );
    const own = interruptRecord({ toolName: 'closeTicket' });
    await appendAt(store, fork, NOW - HOUR + SECOND, [{ type: 'interrupts_opened', interrupts: [own] }], OWNER.ownerId);
    await appendAt(
      store,
      fork,
      NOW - HOUR + 11 * SECOND,
      [{ type: 'interrupt_decided', interruptId: own.id, decision: { status: 'denied', by: person } }],
      OWNER.ownerId,
    );

    const [week] = (await metricsAt(store)).windows;
    expect(week!.tools).toEqual([
      expect.objectContaining({ toolName: 'closeTicket', counts: expect.objectContaining({ approved: 1, rejected: 1 }), total: 2 }),
    ]);
    expect(week!.timeToDecide).toEqual({ decisions: 2, medianMs: 10 * SECOND, p95Ms: 30 * SECOND });
  });
});
