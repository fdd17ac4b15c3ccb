// Escalation, reminders and scoped grants on the memory store (docs/approvals.md):
// the rules, driven through real turns, decisions and recovery sweeps with the scripted model.
import { tool } from 'ai';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type DeepAgent, type ToolApprovalOptions } from '../../authoring';
import type { InterruptRecord } from '../../store/pauses';
import type { SessionEvent } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { recoverSession } from '../recovery/recovery';
import { reduceAll } from '../session/reduce';
import type { RunPart } from '../stream/parts';
import { handlerContext, type ToolApproval } from '../tools/handler-context';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { listGrants, revokeGrant } from '../turn-control/session-grants';
import { startRun } from '../turn-control/turns';
import type { RunRequest } from '../turn/run-request';
import { formatWait } from './expiry';
import type { DecisionRequest } from './read-decision';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

let ran: { toolCallId: string; orderId: string; approval?: ToolApproval }[] = [];
beforeEach(() => {
  ran = [];
});

function deskAgent(approval: Partial<ToolApprovalOptions>) {
  return defineDeepAgent({
    name: 'desk',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    tools: {
      refundPayment: tool({
        inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
        execute: async ({ orderId }) => {
          const { event } = handlerContext();
          ran.push({ toolCallId: event.toolCallId, orderId, ...(event.approval ? { approval: event.approval } : {}) });
          return { refunded: orderId };
        },
      }),
    },
    toolApproval: { refundPayment: { policy: 'user-approval', ...approval } },
  });
}

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `m${++counter}`, role: 'user', content });
const refund = (orderId: string) => `call refundPayment {"orderId": "${orderId}", "amount": 5}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drain(run: { parts: AsyncIterable<RunPart>; done: Promise<void> }) {
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}

async function turn(store: EventStore, agent: DeepAgent, request: Partial<RunRequest>) {
  return drain(await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [], ...request }));
}

function interruptsOf(parts: RunPart[]): InterruptRecord[] {
  const last = parts.at(-1)!;
  if (last.type !== 'run-finished' || last.outcome.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(last)}`);
  return last.interrupts!;
}

async function pausedOn(agent: DeepAgent, orderId = 'po_1', store: EventStore = createMemoryStore()) {
  const interrupts = interruptsOf(await turn(store, agent, { messages: [user(refund(orderId))] }));
  return { store, interrupt: interrupts[0]! };
}

const view = async (store: EventStore, agent: DeepAgent) => reduceAll(await store.readEvents('s1'), agent.initialState);
const eventsOf = async (store: EventStore, type: SessionEvent['type']) => (await store.readEvents('s1')).filter((stored) => stored.event.type === type);
const sweepOnce = async (store: EventStore, agent: DeepAgent) => (await recoverSession(store, () => agent, 's1'))?.done;
const toolMessage = async (store: EventStore, agent: DeepAgent) => (await view(store, agent)).messages.findLast((message) => message.role === 'tool');

describe('escalation on expiry', () => {
  const escalating = (times = 2) => deskAgent({ ttl: 40, onExpire: 'escalate', escalate: { to: ['key:ops', 'lead@example.com'], extendBy: 250, times } });

  it('escalates `times` times, moving the expiry in the view and the store, then denies; the model is told what happened', async () => {
    const agent = escalating(2);
    const { store, interrupt } = await pausedOn(agent);
    expect(interrupt.escalation).toEqual({ to: ['key:ops', 'lead@example.com'], extendByMs: 250, times: 2 });
    expect(interrupt.onExpire).toBe('deny');
    for (const level of [1, 2]) {
      await sleep(level === 1 ? 50 : 260);
      expect(await store.listRecoverable(new Date())).toEqual(['s1']);
      await sweepOnce(store, agent);
      const escalations = await eventsOf(store, 'interrupt_escalated');
      expect(escalations.map((stored) => stored.event)).toHaveLength(level);
      expect(escalations.at(-1)!.event).toMatchObject({ interruptId: interrupt.id, level, to: ['key:ops', 'lead@example.com'] });
      const state = (await view(store, agent)).interrupts[interrupt.id]!;
      expect(state.decision).toBeUndefined();
      expect(state.record.expiresAt).toBe((escalations.at(-1)!.event as { expiresAt: string }).expiresAt);
      expect((await store.findInterrupt(interrupt.id))!.record.expiresAt).toBe(state.record.expiresAt);
      expect(await store.listRecoverable(new Date())).toEqual([]);
    }
    await sleep(260);
    await sweepOnce(store, agent);
    const after = await view(store, agent);
    expect(after.interrupts[interrupt.id]!.decision).toMatchObject({ status: 'denied', expired: true, by: { source: 'expiry' } });
    expect(after.status).toBe('idle');
    expect(ran).toEqual([]);
    const told = await toolMessage(store, agent);
    expect(told?.content).toMatch(/^No one decided within [\d.]+s \(escalated twice to key:ops, lead@example\.com\); the call was denied and did not run\.$/);
  });

  it('two sweeps at once escalate once (the append is a compare-and-set)', async () => {
    const agent = escalating(1);
    const { store } = await pausedOn(agent);
    await sleep(50);
    await Promise.all([sweepOnce(store, agent), sweepOnce(store, agent), sweepOnce(store, agent)]);
    expect(await eventsOf(store, 'interrupt_escalated')).toHaveLength(1);
  });

  it('an escalated interrupt may still be decided until its new expiry', async () => {
    const agent = escalating(1);
    const { store, interrupt } = await pausedOn(agent);
    await sleep(50);
    // The decision comes before any sweep: the escalation due is written with it, and the approval taken.
    const result = await decideInterrupt({
      store,
      findAgent: () => agent,
      interruptId: interrupt.id,
      request: { status: 'approved' },
      by: { source: 'hitl', ownerId: 'o1' },
    });
    await result.continuation?.done;
    expect(await eventsOf(store, 'interrupt_escalated')).toHaveLength(1);
    expect(ran).toEqual([expect.objectContaining({ orderId: 'po_1', approval: { by: 'person' } })]);
  });

  it("onExpire 'approve' runs the call and tells the tool it was approved by expiry", async () => {
    const agent = deskAgent({ ttl: 30, onExpire: 'approve' });
    const { store } = await pausedOn(agent);
    await sleep(40);
    await sweepOnce(store, agent);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.approval).toMatchObject({
      by: 'expiry',
      reason: expect.stringMatching(/^No one decided within .*; the call was approved by its policy on expiry\.$/),
    });
  });

  it("escalate then 'approve' approves after the last escalation", async () => {
    const agent = deskAgent({ ttl: 30, onExpire: 'escalate', escalate: { extendBy: 30, then: 'approve' } });
    const { store, interrupt } = await pausedOn(agent);
    await sleep(40);
    await sweepOnce(store, agent);
    expect(ran).toEqual([]);
    await sleep(40);
    await sweepOnce(store, agent);
    expect((await view(store, agent)).interrupts[interrupt.id]!.decision).toMatchObject({
      status: 'approved',
      expired: true,
      reason: expect.stringContaining('(escalated once)'),
    });
    expect(ran).toHaveLength(1);
  });

  it('is checked when the agent is defined', () => {
    expect(() => deskAgent({ onExpire: 'escalate', escalate: { extendBy: '1h' } })).toThrow(/needs a ttl/);
    expect(() => deskAgent({ ttl: '1h', onExpire: 'escalate' })).toThrow(/needs escalate/);
    expect(() => deskAgent({ ttl: '1h', onExpire: 'escalate', escalate: { extendBy: 'soon' } })).toThrow(
      /Invalid toolApproval.refundPayment.escalate.extendBy/,
    );
    expect(() => deskAgent({ ttl: '1h', onExpire: 'escalate', escalate: { extendBy: '1h', times: 0 } })).toThrow(/times/);
    expect(() => deskAgent({ ttl: '1h', escalate: { extendBy: '1h' } })).toThrow(/onExpire is not 'escalate'/);
    expect(() => deskAgent({ remindBefore: '1h' })).toThrow(/remindBefore needs a ttl/);
  });

  it('words a wait as a person says it', () => {
    expect(formatWait(86_400_000 - 3)).toBe('24h');
    expect(formatWait(1_997)).toBe('2s');
    expect(formatWait(90 * 60_000)).toBe('1.5h');
    expect(formatWait(3 * 86_400_000)).toBe('3d');
    expect(formatWait(15 * 60_000)).toBe('15m');
  });
});

describe('reminders', () => {
  it('a reminder before expiry is recorded once, and the sweep lists the session only while one is due', async () => {
    const agent = deskAgent({ ttl: 3000, remindBefore: 2960 });
    const { store, interrupt } = await pausedOn(agent);
    expect(Date.parse(interrupt.expiresAt!) - Date.parse(interrupt.remindAt!)).toBe(2960);
    expect(await store.listRecoverable(new Date())).toEqual([]);
    // Past the reminder's time (40 ms after the pause): a timer may fire a millisecond early.
    await sleep(60);
    expect(await store.listRecoverable(new Date())).toEqual(['s1']);
    await Promise.all([sweepOnce(store, agent), sweepOnce(store, agent)]);
    await sweepOnce(store, agent);
    const reminded = await eventsOf(store, 'interrupt_reminded');
    expect(reminded.map((stored) => stored.event)).toEqual([
      { type: 'interrupt_reminded', interruptId: interrupt.id, interrupt: expect.objectContaining({ id: interrupt.id }) },
    ]);
    expect((await view(store, agent)).interrupts[interrupt.id]).toMatchObject({ remindedAt: expect.any(String) });
    expect((await view(store, agent)).interrupts[interrupt.id]!.decision).toBeUndefined();
    expect(await store.listRecoverable(new Date())).toEqual([]);
  });
});

describe('scoped grants', () => {
  const granting = (grants: ToolApprovalOptions['grants'] = true) => deskAgent({ grants });
  const approveWith = (interruptId: string, grant: unknown): DecisionRequest => ({ interruptId, status: 'approved', grant });

  async function granted(agent: DeepAgent, grant: unknown) {
    const { store, interrupt } = await pausedOn(agent, 'po_1');
    await turn(store, agent, { decisions: [approveWith(interrupt.id, grant)] });
    const [added] = await eventsOf(store, 'grant_added');
    return { store, grantId: (added!.event as Extract<SessionEvent, { type: 'grant_added' }>).grant.id };
  }

  it("a 'session' grant runs the next call without a pause and records the grant it used; revoked, the next call pauses again", async () => {
    const agent = granting();
    const { store, grantId } = await granted(agent, { scope: 'session' });
    const [added] = await eventsOf(store, 'grant_added');
    expect(added!.event).toMatchObject({ grant: { toolName: 'refundPayment', agent: 'desk', scope: 'session', by: { source: 'agui', ownerId: 'o1' } } });
    const next = await turn(store, agent, { messages: [user(refund('po_2'))] });
    expect(next.at(-1)).toMatchObject({ type: 'run-finished', outcome: { type: 'success' } });
    expect(ran.map((entry) => [entry.orderId, entry.approval])).toEqual([
      ['po_1', { by: 'person' }],
      ['po_2', { by: 'grant', grantId }],
    ]);
    const started = (await eventsOf(store, 'tool_started')).map((stored) => stored.event);
    expect(started.at(-1)).toMatchObject({ grantId });
    expect((await listGrants(store, () => agent, { sessionId: 's1', ownerId: 'o1' }))[0]).toMatchObject({ active: true, grant: { id: grantId } });

    await revokeGrant(store, () => agent, { sessionId: 's1', ownerId: 'o1' }, grantId, { source: 'studio', ownerId: 'o1' });
    expect((await listGrants(store, () => agent, { sessionId: 's1', ownerId: 'o1' }))[0]).toMatchObject({
      active: false,
      revoked: { by: { source: 'studio' } },
    });
    interruptsOf(await turn(store, agent, { messages: [user(refund('po_3'))] }));
    expect(ran).toHaveLength(2);
    await expect(revokeGrant(store, () => agent, { sessionId: 's1', ownerId: 'o1' }, grantId, { source: 'studio', ownerId: 'o1' })).rejects.toMatchObject({
      code: 'not_found',
      details: { what: 'grant' },
    });
    await expect(revokeGrant(store, () => agent, { sessionId: 's1', ownerId: 'o2' }, grantId, { source: 'studio', ownerId: 'o2' })).rejects.toMatchObject({
      code: 'not_found',
      details: { what: 'session' },
    });
  });

  it("a 'time' grant applies until it ends, never after", async () => {
    const agent = granting(['time']);
    const { store } = await granted(agent, { scope: 'time', for: 1000 });
    await turn(store, agent, { messages: [user(refund('po_2'))] });
    expect(ran).toHaveLength(2);
    const [added] = await eventsOf(store, 'grant_added');
    await sleep(Date.parse((added!.event as Extract<SessionEvent, { type: 'grant_added' }>).grant.expiresAt!) - Date.now() + 10);
    interruptsOf(await turn(store, agent, { messages: [user(refund('po_3'))] }));
    expect(ran).toHaveLength(2);
  });

  it("an 'arguments' grant applies to calls with the same values for those arguments only", async () => {
    const agent = granting(['arguments']);
    const { store, grantId } = await granted(agent, { scope: 'arguments', match: { orderId: 'po_1' } });
    await turn(store, agent, { messages: [user(refund('po_1'))] });
    expect(ran.at(-1)).toMatchObject({ orderId: 'po_1', approval: { by: 'grant', grantId } });
    interruptsOf(await turn(store, agent, { messages: [user(refund('po_2'))] }));
    expect(ran).toHaveLength(2);
  });

  it('applies only in the session it was made in', async () => {
    const agent = granting();
    const { store } = await granted(agent, { scope: 'session' });
    const other = interruptsOf(await drain(await startRun({ agent, store, sessionId: 's2', ownerId: 'o1', source: 'agui', messages: [user(refund('po_2'))] })));
    expect(other).toHaveLength(1);
  });

  it('is refused, with nothing written, where it is not allowed or malformed', async () => {
    const cases: [DeepAgent, unknown, Partial<DecisionRequest>, string][] = [
      [deskAgent({}), { scope: 'session' }, {}, 'grant_not_allowed'],
      [granting(['time']), { scope: 'session' }, {}, 'grant_not_allowed'],
      [granting(), { scope: 'session' }, { status: 'denied' }, 'grant_not_allowed'],
      [granting(), { scope: 'forever' }, {}, 'grant_invalid'],
      [granting(), { scope: 'time', for: 'a while' }, {}, 'grant_invalid'],
      [granting(), { scope: 'arguments', match: {} }, {}, 'grant_invalid'],
      [granting(), { scope: 'arguments', match: { customer: 'c1' } }, {}, 'grant_invalid'],
      [granting(), { scope: 'session', extra: 1 }, {}, 'grant_invalid'],
      [deskAgent({ grants: false, quorum: 2, approvers: 'key-holders' }), { scope: 'session' }, {}, 'grant_not_allowed'],
    ];
    for (const [agent, grant, extra, code] of cases) {
      const { store, interrupt } = await pausedOn(agent);
      const head = (await store.getSession('s1'))!.headSeq;
      await expect(turn(store, agent, { decisions: [{ ...approveWith(interrupt.id, grant), ...extra }] })).rejects.toMatchObject({ code });
      expect((await store.getSession('s1'))!.headSeq).toBe(head);
    }
    expect(ran).toEqual([]);
  });

  it('a tool that needs a quorum cannot grant: refused when the agent is defined', () => {
    expect(() => deskAgent({ grants: true, quorum: 2, approvers: 'key-holders' })).toThrow(/quorum cannot grant/);
    expect(() => deskAgent({ grants: true, quorum: () => 1, approvers: 'key-holders' })).toThrow(/quorum cannot grant/);
    expect(() => deskAgent({ grants: ['always' as never] })).toThrow(/grants is true, false or a list/);
  });

  it('is offered in the response schema only when the tool allows it, and read from an AG-UI response', async () => {
    const { interrupt: plain } = await pausedOn(deskAgent({}));
    expect(Object.keys((plain.responseSchema as { properties: object }).properties)).not.toContain('grant');
    const agent = granting(['session', 'time']);
    const { store, interrupt } = await pausedOn(agent);
    const grant = (interrupt.responseSchema as { properties: { grant: { oneOf: unknown[] } } }).properties.grant;
    expect(grant.oneOf).toHaveLength(2);
    await turn(store, agent, {
      decisions: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true, grant: { scope: 'time', for: '1h' } } }],
    });
    const [added] = await eventsOf(store, 'grant_added');
    const { expiresAt } = (added!.event as Extract<SessionEvent, { type: 'grant_added' }>).grant;
    expect(Date.parse(expiresAt!) - Date.now()).toBeGreaterThan(3_500_000);
  });
});
