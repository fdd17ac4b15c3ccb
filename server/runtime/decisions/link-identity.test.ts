// A link counts as a person (docs/approvals.md, "A link counts as a person"): on a keyed server a
// link decides as the key its address is bound to (STACKBONE_APPROVER_EMAILS), one voter with
// that key, held to `approvers` and `requesterMayApprove`; an address bound to nobody decides
// only a key-holders call of quorum 1, and a notice to it about anything else carries no link
// that decides. The pipeline is the real one (decideInterrupt on a memory store).
import { tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseApproverEmails } from '../../credentials/approver-emails';
import { defineDeepAgent, type ToolApprovalOptions } from '../../authoring';
import type { DecisionActor, InterruptRecord } from '../../store/pauses';
import { keyOwner } from '../../credentials/open-dev-mode';
import { createMemoryStore } from '../../store/memory-store';
import { renderInterruptMessage } from '../notify/interrupt-message';
import { decideInterrupt } from '../turn-control/decide-out-of-band';
import { startRun } from '../turn-control/turns';
import { linkActor, linkMayDecide, mayDecide } from './who-may-decide';

const saved = { keys: process.env.STACKBONE_API_KEYS, emails: process.env.STACKBONE_APPROVER_EMAILS, secret: process.env.STACKBONE_SECRET };
beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  process.env.STACKBONE_API_KEYS = 'alice:finance=sk-a1,bob:finance=sk-b2,carol:ops=sk-c3';
  process.env.STACKBONE_APPROVER_EMAILS = 'alice=alice@example.com,bob=Bob@Example.com,carol=carol@example.com';
  process.env.STACKBONE_SECRET = 'link-identity-test-secret-'.padEnd(64, 'x');
});
afterAll(() => {
  for (const [name, value] of [
    ['STACKBONE_API_KEYS', saved.keys],
    ['STACKBONE_APPROVER_EMAILS', saved.emails],
    ['STACKBONE_SECRET', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const key = (secret: string): DecisionActor => ({ source: 'hitl', ownerId: keyOwner(secret), credential: 'key' });
const ALICE = key('sk-a1');
const CAROL = key('sk-c3');
const BROWSER = 'browser:customer-1';

let paid: string[] = [];
function desk(options: Partial<ToolApprovalOptions>) {
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
    toolApproval: { payOut: { policy: 'user-approval', ...options } },
  });
}

/** A payout asked for in `ownerId`'s session, paused on its approval. */
async function paused(agent: ReturnType<typeof desk>, ownerId: string) {
  paid = [];
  const store = createMemoryStore();
  await (
    await startRun({ agent, store, sessionId: 's1', ownerId, source: 'hitl', messages: [{ id: 'u1', role: 'user', content: 'call payOut {"key": "p1"}' }] })
  ).done;
  const opened = (await store.readEvents('s1')).flatMap(({ event }) => (event.type === 'interrupts_opened' ? event.interrupts : []));
  const interrupt = opened[0] as InterruptRecord;
  const decide = (by: DecisionActor) => decideInterrupt({ store, findAgent: () => agent, interruptId: interrupt.id, request: { status: 'approved' }, by });
  return { store, interrupt, decide, head: async () => (await store.getSession('s1'))!.headSeq };
}

describe('STACKBONE_APPROVER_EMAILS', () => {
  it('reads name=address entries, addresses without case; refuses a malformed entry, an address bound twice, a name no key has', () => {
    expect([...parseApproverEmails('alice=Alice@Example.com, bob=bob@example.com,bob=desk@example.com', ['alice', 'bob'])]).toEqual([
      ['alice@example.com', 'alice'],
      ['bob@example.com', 'bob'],
      ['desk@example.com', 'bob'],
    ]);
    expect(() => parseApproverEmails('alice', ['alice'])).toThrow(/is not "name=address"/);
    expect(() => parseApproverEmails('alice=not-an-address', ['alice'])).toThrow(/is not "name=address"/);
    expect(() => parseApproverEmails('alice=a@example.com,bob=A@example.com', ['alice', 'bob'])).toThrow(/bound to both "alice" and "bob"/);
    expect(() => parseApproverEmails('mallory=m@example.com', ['alice'])).toThrow(/no key in STACKBONE_API_KEYS is named "mallory"/);
  });

  it("a bound address's link is its key's person; an unbound one, a Slack channel, is nobody", () => {
    expect(linkActor('email:BOB@example.com')).toEqual({
      source: 'link',
      credential: 'link',
      recipient: 'email:BOB@example.com',
      ownerId: keyOwner('sk-b2'),
      keyName: 'bob',
    });
    expect(linkActor('email:desk@example.com')).toEqual({ source: 'link', credential: 'link', recipient: 'email:desk@example.com' });
    expect(linkActor('slack')).toEqual({ source: 'link', credential: 'link', recipient: 'slack' });
  });
});

describe('a link decides as its person', () => {
  const payOut = () => desk({ approvers: ['key:finance'], quorum: 2, requesterMayApprove: false });

  it('an unbound address never counts toward a finance quorum: refused, nothing written, nothing paid', async () => {
    const { interrupt, decide, head } = await paused(payOut(), CAROL.ownerId!);
    const before = await head();
    expect(mayDecide(interrupt, CAROL.ownerId!, linkActor('email:desk@example.com'))).toBe(false);
    await expect(decide(linkActor('email:desk@example.com'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(decide(linkActor('email:finance@example.com'))).rejects.toMatchObject({ code: 'not_found' });
    expect(await head()).toBe(before);
    expect(paid).toEqual([]);
  });

  it("a finance key and that person's own link are one voter; the requester's link is the requester; another finance person's link completes it", async () => {
    const { decide } = await paused(payOut(), CAROL.ownerId!);
    expect(await decide(ALICE)).toMatchObject({ vote: { status: 'approved' } });
    await expect(decide(linkActor('email:alice@example.com'))).rejects.toMatchObject({ code: 'already_voted', status: 409 });
    // Carol asked; her mailed link is Carol, and she is not finance either.
    await expect(decide(linkActor('email:carol@example.com'))).rejects.toMatchObject({ code: 'requester_may_not_approve' });
    const done = await decide(linkActor('email:bob@example.com'));
    await done.continuation!.done;
    expect(done.decision!.votes!.map((vote) => vote.by.keyName)).toEqual(['alice', 'bob']);
    expect(done.decision!.votes![1]!.by).toMatchObject({ source: 'link', ownerId: keyOwner('sk-b2') });
    expect(paid).toEqual(['p1']);
  });

  it('a link of a key the list does not name is refused as the key would be', async () => {
    const { decide } = await paused(payOut(), ALICE.ownerId!);
    await expect(decide(linkActor('email:carol@example.com'))).rejects.toMatchObject({ code: 'approver_required' });
    expect(paid).toEqual([]);
  });

  it("a customer's own call is the customer's: no link decides it, bound or not", async () => {
    const { interrupt, decide } = await paused(desk({}), BROWSER);
    for (const recipient of ['email:desk@example.com', 'email:alice@example.com', 'slack']) {
      expect(linkMayDecide(interrupt, recipient, BROWSER)).toBe(false);
      await expect(decide(linkActor(recipient))).rejects.toMatchObject({ code: 'not_found' });
    }
    expect(paid).toEqual([]);
    // In alice's own session, alice's link is alice.
    const own = await paused(desk({}), ALICE.ownerId!);
    await (
      await own.decide(linkActor('email:alice@example.com'))
    ).continuation!.done;
    expect(paid).toEqual(['p1']);
  });

  it('a key-holders call: an unbound link decides it alone at quorum 1, never as one of two', async () => {
    const single = await paused(desk({ approvers: 'key-holders' }), BROWSER);
    expect(linkMayDecide(single.interrupt, 'slack', BROWSER)).toBe(true);
    await (
      await single.decide(linkActor('slack'))
    ).continuation!.done;
    expect(paid).toEqual(['p1']);

    const two = await paused(desk({ approvers: 'key-holders', quorum: 2 }), BROWSER);
    expect(linkMayDecide(two.interrupt, 'email:desk@example.com', BROWSER)).toBe(false);
    expect(linkMayDecide(two.interrupt, 'email:alice@example.com', BROWSER)).toBe(true);
    expect(await two.decide(ALICE)).toMatchObject({ vote: {} });
    await expect(two.decide(linkActor('email:desk@example.com'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(two.decide(linkActor('email:alice@example.com'))).rejects.toMatchObject({ code: 'already_voted' });
    expect(paid).toEqual([]);
  });
});

describe('a notice', () => {
  it('carries Approve and Reject only to a recipient whose link may decide; the others are told for their information', async () => {
    const { interrupt } = await paused(desk({ approvers: ['key:finance'], quorum: 2, requesterMayApprove: false }), CAROL.ownerId!);
    const notice = {
      id: 'msg_1',
      type: 'interrupt.opened' as const,
      sessionId: `${CAROL.ownerId}/s1`,
      agent: 'desk',
      ownerId: CAROL.ownerId!,
      at: new Date().toISOString(),
      data: interrupt as unknown as Record<string, never>,
    };
    const toBob = renderInterruptMessage(notice, { recipient: 'email:bob@example.com', baseUrl: 'https://desk.example.com' });
    expect(toBob.links.approve).toMatch(/^https:\/\/desk\.example\.com\/approve\//);
    for (const recipient of ['email:desk@example.com', 'email:carol@example.com', 'slack']) {
      const message = renderInterruptMessage(notice, { recipient, baseUrl: 'https://desk.example.com' });
      expect(message.links).toEqual({ studio: `https://desk.example.com/studio?decision=${interrupt.id}` });
      expect(message.subject).toMatch(/^For your information: approval requested: /);
      expect(message.text).toContain('this request is decided by 2 approvers from key:finance');
      expect(message.text).not.toContain('/approve/');
      expect(message.html).not.toContain('/approve/');
    }
  });
});
