// Quorum and separation of duties (docs/approvals.md): a call kept for `key:finance` with a
// quorum of 2 and `requesterMayApprove: false` runs only once two distinct finance keys other
// than the requester approved it; each approval short of that is its own vote; the requester,
// a key the list does not name, and a second vote by one approver are refused, writing nothing;
// one rejection rejects; a chat resume that would only vote is refused; racing final votes make
// one decision and one run.
import { tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type ToolApprovalOptions } from '../../authoring';
import type { DecisionActor, InterruptRecord } from '../../store/pauses';
import { keyOwner } from '../../credentials/open-dev-mode';
import { createMemoryStore } from '../../store/memory-store';
import { loadView } from '../session';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { startRun } from '../turn-control/turns';
import { mayDecide } from './who-may-decide';
import { follow } from '../stream/follow';
import { shownVote, voteReaderOf } from './votes';

let savedKeys: string | undefined;
beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  savedKeys = process.env.STACKBONE_API_KEYS;
  process.env.STACKBONE_API_KEYS = 'alice:finance=sk-a1,bob:finance=sk-b2,dave:finance+ops=sk-d4,carol:ops=sk-c3,sk-plain';
});
afterAll(() => {
  if (savedKeys === undefined) delete process.env.STACKBONE_API_KEYS;
  else process.env.STACKBONE_API_KEYS = savedKeys;
});

let paid: string[] = [];
function desk(options: Partial<ToolApprovalOptions> = {}) {
  return defineDeepAgent({
    name: 'desk',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    tools: {
      payOut: tool({
        inputSchema: z.object({ key: z.string() }),
        execute: async ({ key }) => {
          paid.push(key);
          return { paid: key };
        },
      }),
    },
    toolApproval: { payOut: { policy: 'user-approval', approvers: ['key:finance'], quorum: 2, requesterMayApprove: false, ...options } },
  });
}

const key = (secret: string): DecisionActor => ({ source: 'hitl', ownerId: keyOwner(secret), credential: 'key' });
const ALICE = key('sk-a1');
const BOB = key('sk-b2');
const DAVE = key('sk-d4');
const CAROL = key('sk-c3');

/** Alice (a finance key herself) asks for a payout in her own session. */
async function paused(agent = desk()) {
  paid = [];
  const store = createMemoryStore();
  const run = await startRun({
    agent,
    store,
    sessionId: 's1',
    ownerId: ALICE.ownerId!,
    source: 'hitl',
    messages: [{ id: 'u1', role: 'user', content: 'call payOut {"key": "p1"}' }],
  });
  await run.done;
  const opened = (await store.readEvents('s1')).flatMap(({ event }) => (event.type === 'interrupts_opened' ? event.interrupts : []));
  return { store, agent, interrupt: opened[0] as InterruptRecord };
}

const decide = (setup: Awaited<ReturnType<typeof paused>>, by: DecisionActor, status: 'approved' | 'denied' | 'cancelled' = 'approved', reason?: string) =>
  decideInterrupt({
    store: setup.store,
    findAgent: () => setup.agent,
    interruptId: setup.interrupt.id,
    request: { status, ...(reason ? { reason } : {}) },
    by,
  });

const head = async (setup: Awaited<ReturnType<typeof paused>>) => (await setup.store.getSession('s1'))!.headSeq;
const votesOf = async (setup: Awaited<ReturnType<typeof paused>>) => (await loadView(setup.store, 's1', {})).interrupts[setup.interrupt.id]!;

describe('the pause', () => {
  it('records the approvers, the quorum and that the requester may not approve', async () => {
    const { interrupt } = await paused();
    expect(interrupt).toMatchObject({ approvers: ['key:finance'], quorum: 2, requesterMayApprove: false });
    expect(interrupt.rejectOn).toBeUndefined();
  });

  it('is listed to the keys the list names, in whoever session it waits, and to its requester', async () => {
    const setup = await paused();
    for (const [by, sees] of [
      [BOB, true],
      [DAVE, true],
      [ALICE, true],
      [CAROL, false],
    ] as const) {
      const rows = await setup.store.listPendingInterrupts(by.ownerId!, { keyHolder: true });
      expect(rows.filter((row) => mayDecide(row.record, row.ownerId, by)).map((row) => row.id)).toEqual(sees ? [setup.interrupt.id] : []);
    }
  });
});

describe('who may vote', () => {
  it('refuses the requester, approving or rejecting, and writes nothing; they may still withdraw it', async () => {
    const setup = await paused();
    const before = await head(setup);
    for (const status of ['approved', 'denied'] as const) {
      await expect(decide(setup, ALICE, status)).rejects.toMatchObject({ code: 'requester_may_not_approve', status: 403 });
    }
    expect(await head(setup)).toBe(before);
    const withdrawn = await decide(setup, ALICE, 'cancelled');
    await withdrawn.continuation!.done;
    expect(withdrawn.decision).toMatchObject({ status: 'cancelled' });
    expect(paid).toEqual([]);
  });

  it('refuses a key the list does not name (told who decides), even to withdraw it; a bare key too', async () => {
    const setup = await paused();
    const before = await head(setup);
    for (const status of ['approved', 'denied', 'cancelled'] as const) {
      await expect(decide(setup, CAROL, status)).rejects.toMatchObject({
        code: 'approver_required',
        status: 403,
        message: expect.stringMatching(/key:finance/),
      });
    }
    await expect(decide(setup, key('sk-plain'))).rejects.toMatchObject({ code: 'approver_required' });
    // A browser (not a key) is not told it exists.
    await expect(decide(setup, { source: 'agui', ownerId: 'browser:b1', credential: 'browser' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await head(setup)).toBe(before);
  });
});

describe('votes', () => {
  it('an approval short of the quorum is a vote; a second by the same approver is refused; the one that reaches it decides and runs the call once', async () => {
    const setup = await paused();
    const first = await decide(setup, BOB);
    expect(first).toMatchObject({ vote: { status: 'approved', by: { ownerId: BOB.ownerId, keyName: 'bob' } } });
    expect(first.decision).toBeUndefined();
    expect(first.continuation).toBeUndefined();
    expect((await votesOf(setup)).votes).toHaveLength(1);
    expect(paid).toEqual([]);

    const before = await head(setup);
    await expect(decide(setup, BOB)).rejects.toMatchObject({ code: 'already_voted', status: 409 });
    await expect(decide(setup, BOB, 'denied')).rejects.toMatchObject({ code: 'already_voted' });
    expect(await head(setup)).toBe(before);

    const second = await decide(setup, DAVE);
    await second.continuation!.done;
    expect(second.decision).toMatchObject({
      status: 'approved',
      by: { keyName: 'dave' },
      votes: [
        { status: 'approved', by: { keyName: 'bob' } },
        { status: 'approved', by: { keyName: 'dave' } },
      ],
    });
    expect(paid).toEqual(['p1']);
    await expect(decide(setup, DAVE)).rejects.toMatchObject({ code: 'interrupt_already_decided' });
    const events = (await setup.store.readEvents('s1')).map(({ event }) => event.type);
    expect(events.filter((type) => type === 'interrupt_voted')).toHaveLength(1);
    expect(events.filter((type) => type === 'interrupt_decided')).toHaveLength(1);
  });

  it('each vote comes on the session stream outside any run, every vote so far; each reader reads their own as theirs, and names only where they may; the decision lists every vote', async () => {
    const setup = await paused();
    const seen = async () => {
      const parts = [];
      for await (const entry of follow({ store: setup.store, sessionId: 's1', initialState: setup.agent.initialState, after: null, maxMs: 50, pollMs: 10 }))
        parts.push(entry);
      return parts;
    };
    await decide(setup, BOB);
    const voted = (await seen()).filter((entry) => entry.part.type === 'interrupt-voted');
    expect(voted).toHaveLength(1);
    expect(voted[0]!.runId).toBeUndefined();
    const part = voted[0]!.part as Extract<(typeof voted)[number]['part'], { type: 'interrupt-voted' }>;
    expect(part).toMatchObject({ interruptId: setup.interrupt.id, quorum: 2, votes: [{ status: 'approved', by: { keyName: 'bob' } }] });
    // Bob reads his own vote as his; Dave, a key holder too, reads bob's name; a customer's browser reads the count alone.
    expect(shownVote(part.votes[0]!, voteReaderOf(BOB.ownerId!))).toMatchObject({ status: 'approved', mine: true, by: { keyName: 'bob' } });
    expect(shownVote(part.votes[0]!, voteReaderOf(DAVE.ownerId!))).not.toHaveProperty('mine');
    expect(shownVote(part.votes[0]!, voteReaderOf('browser:0b7c5a9e-1111-4222-8333-944445555666'))).toEqual({ status: 'approved' });

    const second = await decide(setup, DAVE);
    await second.continuation!.done;
    const decided = (await seen()).flatMap((entry) => (entry.part.type === 'interrupt-decided' ? [entry.part.decision] : []));
    expect(decided.at(-1)).toMatchObject({
      status: 'approved',
      votes: [
        { status: 'approved', source: 'hitl' },
        { status: 'approved', source: 'hitl' },
      ],
    });
  });

  it("one rejection rejects (rejectOn 'first'), after an approval, carrying the votes", async () => {
    const setup = await paused();
    await decide(setup, BOB);
    const rejected = await decide(setup, DAVE, 'denied', 'over budget');
    await rejected.continuation!.done;
    expect(rejected.decision).toMatchObject({ status: 'denied', reason: 'over budget', votes: [{ status: 'approved' }, { status: 'denied' }] });
    expect(paid).toEqual([]);
  });

  it("rejectOn 'quorum': a rejection short of it is a vote, and as many as the quorum reject", async () => {
    const setup = await paused(desk({ rejectOn: 'quorum' }));
    expect(setup.interrupt.rejectOn).toBe('quorum');
    expect(await decide(setup, BOB, 'denied')).toMatchObject({ vote: { status: 'denied' } });
    const rejected = await decide(setup, DAVE, 'denied');
    await rejected.continuation!.done;
    expect(rejected.decision).toMatchObject({ status: 'denied', votes: [{ status: 'denied' }, { status: 'denied' }] });
    expect(paid).toEqual([]);
  });

  it('a chat resume that would only vote is refused (quorum_pending), writing nothing; one that reaches the quorum decides', async () => {
    const setup = await paused();
    const resume = (by: DecisionActor) =>
      startRun({
        agent: setup.agent,
        store: setup.store,
        sessionId: 's1',
        ownerId: ALICE.ownerId!,
        source: 'agui',
        messages: [],
        decisions: [{ interruptId: setup.interrupt.id, status: 'approved' }],
        decidedBy: by,
      });
    const before = await head(setup);
    await expect(resume({ ...BOB, source: 'agui' })).rejects.toMatchObject({
      code: 'quorum_pending',
      message: expect.stringMatching(/Studio, the CLI, \/api\/hitl/),
    });
    expect(await head(setup)).toBe(before);
    await decide(setup, BOB);
    const run = await resume({ ...DAVE, source: 'agui' });
    await run.done;
    expect(run.decided![0]!.decision).toMatchObject({ status: 'approved', votes: [{}, {}] });
    expect(paid).toEqual(['p1']);
  });

  it('three approvers at once: one vote, one decision, one refusal; the call runs once, one continuation', async () => {
    const setup = await paused();
    const before = await head(setup);
    const results = await Promise.allSettled([decide(setup, BOB), decide(setup, DAVE), decide(setup, key('sk-a1'))]);
    // Alice is the requester: refused as such. Bob and Dave: one votes, one decides.
    expect(results[2]).toMatchObject({ status: 'rejected', reason: { code: 'requester_may_not_approve' } });
    const outcomes = results.slice(0, 2).map((result) => (result.status === 'fulfilled' ? (result.value.decision ? 'decision' : 'vote') : result.reason.code));
    expect(outcomes.sort()).toEqual(['decision', 'vote']);
    for (const result of results) if (result.status === 'fulfilled') await result.value.continuation?.done;
    expect(paid).toEqual(['p1']);
    const events = (await setup.store.readEvents('s1', before)).map(({ event }) => event);
    expect(events.filter((event) => event.type === 'interrupt_decided')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'run_started')).toHaveLength(1);
  });
});

describe('defining the options', () => {
  const define = (options: Record<string, unknown>) => () => desk(options as Partial<ToolApprovalOptions>);
  it('refuses what nobody could ever decide, or what does not read as written', () => {
    expect(define({ approvers: 'session-owner' })).toThrow(/a quorum of 2 needs approvers other than the session's owner/);
    expect(define({ approvers: 'session-owner', quorum: 1 })).toThrow(/requesterMayApprove: false needs approvers other than the session's owner/);
    expect(define({ approvers: [] })).toThrow(/approvers is an empty list/);
    expect(define({ approvers: ['finance'] })).toThrow(/approvers entry "finance" is not "role:<role>", "members" or "key:<name-or-group>"/);
    expect(define({ approvers: ['key:finance', 'key:finance'] })).toThrow(/names an entry twice/);
    expect(define({ approvers: 'everyone' })).toThrow(/approvers is "everyone"/);
    expect(define({ quorum: 0 })).toThrow(/quorum is a whole number, at least 1, not 0/);
    expect(define({ quorum: 1.5 })).toThrow(/quorum is a whole number/);
    expect(define({ rejectOn: 'last' })).toThrow(/rejectOn is 'first' or 'quorum'/);
    expect(define({ allowEdit: true })).toThrow(/allowEdit cannot go with a quorum/);
    expect(define({ approvers: ['key:finance'], quorum: 1, allowEdit: true })).not.toThrow();
  });
});

describe('a quorum per call (a function of its arguments)', () => {
  /** A payout of `amount`: over 100 it needs two finance approvers, and nobody edits it. */
  function byAmount() {
    return defineDeepAgent({
      name: 'desk',
      model: 'openai/gpt-4o-mini',
      instructions: 'x',
      tools: {
        payOut: tool({
          inputSchema: z.object({ key: z.string(), amount: z.number() }),
          execute: async ({ key }) => {
            paid.push(key);
            return { paid: key };
          },
        }),
      },
      toolApproval: {
        payOut: { policy: 'user-approval', approvers: ['key:finance'], allowEdit: true, quorum: (input: { amount: number }) => (input.amount > 100 ? 2 : 1) },
      },
    });
  }

  async function pausedOn(amount: number) {
    paid = [];
    const store = createMemoryStore();
    const agent = byAmount();
    await (
      await startRun({
        agent,
        store,
        sessionId: 's1',
        ownerId: CAROL.ownerId!,
        source: 'hitl',
        messages: [{ id: 'u1', role: 'user', content: `call payOut {"key": "p${amount}", "amount": ${amount}}` }],
      })
    ).done;
    const opened = (await store.readEvents('s1')).flatMap(({ event }) => (event.type === 'interrupts_opened' ? event.interrupts : []));
    const interrupt = opened[0] as InterruptRecord;
    const approve = (by: DecisionActor, request: { editedArgs?: unknown } = {}) =>
      decideInterrupt({ store, findAgent: () => agent, interruptId: interrupt.id, request: { status: 'approved', ...request }, by });
    return { interrupt, approve };
  }

  it('asks two approvers of a large call, with no edit offered, and one of a small call, which may be edited', async () => {
    const large = await pausedOn(500);
    expect(large.interrupt).toMatchObject({ quorum: 2, allowedDecisions: ['approve', 'reject'] });
    await expect(large.approve(ALICE, { editedArgs: { key: 'p500', amount: 1 } })).rejects.toMatchObject({ code: 'edit_not_allowed' });
    expect(await large.approve(ALICE)).toMatchObject({ vote: { status: 'approved' } });
    expect(paid).toEqual([]);
    const second = await large.approve(BOB);
    await second.continuation!.done;
    expect(paid).toEqual(['p500']);

    const small = await pausedOn(50);
    expect(small.interrupt.quorum).toBeUndefined();
    expect(small.interrupt.allowedDecisions).toEqual(['approve', 'reject', 'edit']);
    const decided = await small.approve(ALICE);
    await decided.continuation!.done;
    expect(paid).toEqual(['p50']);
  });

  it('counts an edit again: one approver may not edit a one-approver call into one that needs two, and may edit it within one', async () => {
    const small = await pausedOn(5);
    await expect(small.approve(ALICE, { editedArgs: { key: 'p5', amount: 5000 } })).rejects.toMatchObject({
      code: 'edit_needs_quorum',
      status: 403,
      message: expect.stringMatching(/needs 2 approvers, and this request was opened for 1/),
    });
    expect(paid).toEqual([]);
    const edited = await small.approve(ALICE, { editedArgs: { key: 'p5', amount: 60 } });
    await edited.continuation!.done;
    expect(edited.decision).toMatchObject({ status: 'approved', editedArgs: { key: 'p5', amount: 60 } });
    expect(paid).toEqual(['p5']);
  });

  it('refuses a per-call quorum where nobody but the session owner approves', () => {
    expect(() =>
      defineDeepAgent({
        name: 'desk',
        model: 'openai/gpt-4o-mini',
        instructions: 'x',
        tools: { payOut: tool({ inputSchema: z.object({ amount: z.number() }), execute: async () => ({}) }) },
        toolApproval: { payOut: { policy: 'user-approval', quorum: () => 2 } },
      }),
    ).toThrow(/needs approvers other than the session's owner/);
  });
});
