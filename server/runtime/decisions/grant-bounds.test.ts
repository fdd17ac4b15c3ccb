// The bounds of a scoped grant (docs/approvals.md, "Scoped grants"), on the memory store with the
// scripted model: a 'time' grant lasts at most its tool's maxGrantTime (30 days unless the tool
// says), a `for` past it — or past any date — is `grant_invalid` with nothing written; and a grant
// covers a call only while its maker could still approve that call as the tool is configured now.
import { tool } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type DeepAgent, type ToolApprovalOptions } from '../../authoring';
import type { DecisionActor, Grant, InterruptRecord } from '../../store/pauses';
import type { SessionEvent } from '../../store/events';
import type { ChatMessage } from '../../store/messages';
import { keyOwner } from '../../credentials/open-dev-mode';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { RunPart } from '../stream/parts';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { startRun } from '../turn-control/turns';
import type { RunRequest } from '../turn/run-request';
import type { DecisionRequest } from './read-decision';

let savedKeys: string | undefined;
beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  savedKeys = process.env.STACKBONE_API_KEYS;
  process.env.STACKBONE_API_KEYS = 'alice:finance=sk-a1,carol:ops=sk-c3';
});
afterAll(() => {
  if (savedKeys === undefined) delete process.env.STACKBONE_API_KEYS;
  else process.env.STACKBONE_API_KEYS = savedKeys;
});

let ran: string[] = [];
beforeEach(() => {
  ran = [];
});

const DAY = 86_400_000;

/** The desk agent as one deploy configures it: the same name and tool, its approval as given. */
function desk(approval: Partial<ToolApprovalOptions>) {
  return defineDeepAgent({
    name: 'desk',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    tools: {
      refundPayment: tool({
        inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
        execute: async ({ orderId }) => {
          ran.push(orderId);
          return { refunded: orderId };
        },
      }),
    },
    toolApproval: { refundPayment: { policy: 'user-approval', ...approval } },
  });
}

const BROWSER = 'browser:b1';
const customer: DecisionActor = { source: 'agui', ownerId: BROWSER, credential: 'browser' };
const key = (secret: string): DecisionActor => ({ source: 'hitl', ownerId: keyOwner(secret), credential: 'key' });
const ALICE = key('sk-a1');
const CAROL = key('sk-c3');

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `m${++counter}`, role: 'user', content });
const refund = (orderId: string) => `call refundPayment {"orderId": "${orderId}", "amount": 5}`;

async function drain(run: { parts: AsyncIterable<RunPart>; done: Promise<void> }) {
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}

/** A turn in session s1 of `owner`, deciding as `by` when it carries decisions. */
async function turn(store: EventStore, agent: DeepAgent, owner: string, request: Partial<RunRequest>, by?: DecisionActor) {
  return drain(await startRun({ agent, store, sessionId: 's1', ownerId: owner, source: 'agui', messages: [], ...(by ? { decidedBy: by } : {}), ...request }));
}

function interruptOf(parts: RunPart[]): InterruptRecord {
  const last = parts.at(-1)!;
  if (last.type !== 'run-finished' || last.outcome.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(last)}`);
  return last.interrupts![0]!;
}

const outcomeOf = (parts: RunPart[]) => (parts.at(-1) as Extract<RunPart, { type: 'run-finished' }>).outcome.type;
const grantsAdded = async (store: EventStore) =>
  (await store.readEvents('s1')).flatMap(({ event }) =>
    event.type === 'grant_added' ? [(event as Extract<SessionEvent, { type: 'grant_added' }>).grant] : [],
  );
const approveWith = (interruptId: string, grant: unknown): DecisionRequest => ({ interruptId, status: 'approved', grant });

describe("a 'time' grant's bound", () => {
  /** Pauses on a call in the owner's own session, then approves it with `grant` there. */
  async function approveInSession(agent: DeepAgent, grant: unknown) {
    const store = createMemoryStore();
    const interrupt = interruptOf(await turn(store, agent, 'o1', { messages: [user(refund('po_1'))] }));
    const head = (await store.getSession('s1'))!.headSeq;
    const decided = turn(store, agent, 'o1', { decisions: [approveWith(interrupt.id, grant)] });
    return { store, head, decided };
  }

  it('is 30 days unless the tool says: a longer `for`, a huge one or one no Date can hold is grant_invalid, with nothing written', async () => {
    const agent = desk({ grants: ['time'] });
    for (const wanted of ['31d', 30 * DAY + 1, '36500000d', '99999999999d', 1e300]) {
      const { store, head, decided } = await approveInSession(agent, { scope: 'time', for: wanted });
      await expect(decided).rejects.toMatchObject({ code: 'grant_invalid', message: expect.stringContaining('at most 30d') });
      expect((await store.getSession('s1'))!.headSeq).toBe(head);
    }
    for (const wanted of [0, -1, Number.POSITIVE_INFINITY, Number.NaN]) {
      const { decided } = await approveInSession(agent, { scope: 'time', for: wanted });
      await expect(decided).rejects.toMatchObject({ code: 'grant_invalid' });
    }
    expect(ran).toEqual([]);
  });

  it("allows up to the bound: '1h' and exactly 30 days are granted, and the next call runs inside the grant", async () => {
    const agent = desk({ grants: ['time'] });
    for (const [wanted, ms] of [
      ['1h', 3_600_000],
      ['30d', 30 * DAY],
    ] as const) {
      ran = [];
      const { store, decided } = await approveInSession(agent, { scope: 'time', for: wanted });
      await decided;
      const [grant] = await grantsAdded(store);
      expect(Date.parse(grant!.expiresAt!) - Date.now()).toBeGreaterThan(ms - 5_000);
      expect(Date.parse(grant!.expiresAt!) - Date.now()).toBeLessThanOrEqual(ms);
      expect(outcomeOf(await turn(store, agent, 'o1', { messages: [user(refund('po_2'))] }))).toBe('success');
      expect(ran).toEqual(['po_1', 'po_2']);
    }
  });

  it("follows the tool's maxGrantTime, and the response schema says it", async () => {
    const agent = desk({ grants: ['session', 'time'], maxGrantTime: '7d' });
    const refused = await approveInSession(agent, { scope: 'time', for: '8d' });
    await expect(refused.decided).rejects.toMatchObject({ code: 'grant_invalid', message: expect.stringContaining('at most 7d') });
    const accepted = await approveInSession(agent, { scope: 'time', for: '7d' });
    await accepted.decided;
    expect(await grantsAdded(accepted.store)).toHaveLength(1);

    const interrupt = interruptOf(await turn(createMemoryStore(), agent, 'o1', { messages: [user(refund('po_3'))] }));
    const grant = (interrupt.responseSchema as { properties: { grant: { oneOf: { properties: { scope: { const: string }; for?: object } }[] } } }).properties
      .grant;
    const time = grant.oneOf.find((branch) => branch.properties.scope.const === 'time')!;
    expect(time.properties.for).toMatchObject({ maximum: 7 * DAY, exclusiveMinimum: 0, description: expect.stringContaining('at most 7d') });
    // A bound so long that no Date holds its end: the `for` is still refused before a date is built.
    const unbounded = await approveInSession(desk({ grants: ['time'], maxGrantTime: '99999999999d' }), { scope: 'time', for: '99999999999d' });
    await expect(unbounded.decided).rejects.toMatchObject({ code: 'grant_invalid', message: expect.stringContaining('past the last date') });
    const byDefault = interruptOf(await turn(createMemoryStore(), desk({ grants: true }), 'o1', { messages: [user(refund('po_4'))] }));
    expect(JSON.stringify(byDefault.responseSchema)).toContain(`"maximum":${30 * DAY}`);
  });

  it('a bad maxGrantTime fails when the agent is defined', () => {
    expect(() => desk({ grants: ['session'], maxGrantTime: '7d' })).toThrow(/maxGrantTime needs grants that include 'time'/);
    expect(() => desk({ maxGrantTime: '7d' })).toThrow(/maxGrantTime needs grants/);
    expect(() => desk({ grants: ['time'], maxGrantTime: 'a week' })).toThrow(/Invalid toolApproval.refundPayment.maxGrantTime/);
    expect(() => desk({ grants: ['time'], maxGrantTime: 0 })).toThrow(/maxGrantTime is a positive, finite duration/);
    expect(() => desk({ grants: ['time'], maxGrantTime: Number.POSITIVE_INFINITY })).toThrow(/maxGrantTime is a positive, finite duration/);
    expect(() => desk({ grants: true, maxGrantTime: '12h' })).not.toThrow();
  });
});

describe('a grant counts only while its maker could approve the call as the tool is configured now', () => {
  /** A browser's session: its owner approves its own call with a session grant, which covers the next call. */
  async function browserGrant(agent: DeepAgent) {
    const store = createMemoryStore();
    const interrupt = interruptOf(await turn(store, agent, BROWSER, { messages: [user(refund('po_1'))] }));
    await turn(store, agent, BROWSER, { decisions: [approveWith(interrupt.id, { scope: 'session' })] }, customer);
    expect(outcomeOf(await turn(store, agent, BROWSER, { messages: [user(refund('po_2'))] }))).toBe('success');
    expect(ran).toEqual(['po_1', 'po_2']);
    return store;
  }

  it("a browser's own grant stops covering calls once a deploy keeps the tool for key holders; a key holder's grant then does", async () => {
    const store = await browserGrant(desk({ grants: ['session'] }));
    const tightened = desk({ grants: ['session'], approvers: 'key-holders' });
    const paused = interruptOf(await turn(store, tightened, BROWSER, { messages: [user(refund('po_3'))] }));
    expect(paused).toMatchObject({ toolName: 'refundPayment', approvers: 'key-holders' });
    expect(ran).toEqual(['po_1', 'po_2']);

    // The honest path: a key holder approves in the browser's session, with a grant of their own.
    const decided = await decideInterrupt({
      store,
      findAgent: () => tightened,
      interruptId: paused.id,
      request: { status: 'approved', grant: { scope: 'session' } },
      by: CAROL,
    });
    await decided.continuation!.done;
    expect(outcomeOf(await turn(store, tightened, BROWSER, { messages: [user(refund('po_4'))] }))).toBe('success');
    expect(ran).toEqual(['po_1', 'po_2', 'po_3', 'po_4']);
    const started = (await store.readEvents('s1')).flatMap(({ event }) => (event.type === 'tool_started' ? [event] : []));
    expect(started.at(-1)).toMatchObject({ grantId: decided.grant!.id });
  });

  it('a grant stops covering calls once the approvers list no longer names its maker, or the requester may no longer approve', async () => {
    for (const tightening of [{ approvers: ['key:ops'] as const }, { requesterMayApprove: false }]) {
      ran = [];
      const agent = desk({ grants: ['session'], approvers: ['key:finance'] });
      const store = createMemoryStore();
      const owner = ALICE.ownerId!;
      const interrupt = interruptOf(await turn(store, agent, owner, { messages: [user(refund('po_1'))] }));
      await turn(store, agent, owner, { decisions: [approveWith(interrupt.id, { scope: 'session' })] }, ALICE);
      const [grant] = await grantsAdded(store);
      expect(grant).toMatchObject<Partial<Grant>>({ scope: 'session', by: expect.objectContaining({ ownerId: owner }) });
      expect(outcomeOf(await turn(store, agent, owner, { messages: [user(refund('po_2'))] }))).toBe('success');

      const tightened = desk({ grants: ['session'], approvers: ['key:finance'], ...tightening });
      interruptOf(await turn(store, tightened, owner, { messages: [user(refund('po_3'))] }));
      expect(ran).toEqual(['po_1', 'po_2']);
    }
  });

  it('a tool that now needs a quorum is covered by no grant', async () => {
    const store = await browserGrant(desk({ grants: ['session'] }));
    interruptOf(await turn(store, desk({ approvers: 'key-holders', quorum: 2 }), BROWSER, { messages: [user(refund('po_3'))] }));
    expect(ran).toEqual(['po_1', 'po_2']);
  });
});
