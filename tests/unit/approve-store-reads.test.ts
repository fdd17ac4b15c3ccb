// One pass per request (docs/internals/architecture.md, "One pass per request"): an approve reads
// the interrupt, the session and the log once each before its one write, whichever door it comes
// through — the chat's decide route or the out-of-band API. The store is counted as the bench's SQL
// counter counts queries: a read added to the path shows here as a longer list.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '@/server/store/memory-store';
import type { EventStore } from '@/server/store/types';
import { findAgent } from '@/server/agents';
import { LOCAL_OWNER } from '@/server/credentials/open-dev-mode';
import { loadView, pendingInterrupts, scopedSessionId, startRun, userMessage } from '@/server/runtime';
import { handleChatDecision } from '@/server/routes/agents/decide';
import { decide } from '@/server/routes/hitl/decide';

/** What the store was asked, in order, until its first write. */
let calls: string[] = [];
const WRITES = new Set(['append', 'createSession', 'updateSession']);

const memory = createMemoryStore();
const counted = new Proxy(memory, {
  get(target, property, receiver) {
    const value = Reflect.get(target, property, receiver) as unknown;
    if (typeof value !== 'function' || typeof property !== 'string') return value;
    return (...args: unknown[]) => {
      calls.push(property);
      return (value as (...a: unknown[]) => unknown).apply(target, args);
    };
  },
}) as EventStore;

const saved = process.env.STACKBONE_API_KEYS;
beforeAll(() => {
  delete process.env.STACKBONE_API_KEYS;
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = counted;
});
afterAll(() => {
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = undefined;
  if (saved !== undefined) process.env.STACKBONE_API_KEYS = saved;
});

/** A helpdesk thread of open dev mode's local owner, paused on closing a ticket. */
async function pausedThread() {
  const agent = findAgent('helpdesk')!;
  const threadId = randomUUID();
  const sessionId = scopedSessionId(LOCAL_OWNER, threadId);
  const started = await startRun({ agent, store: memory, sessionId, ownerId: LOCAL_OWNER, source: 'agui', messages: [userMessage('close ticket T-7')] });
  await started.done;
  const [interrupt] = pendingInterrupts(await loadView(memory, sessionId, agent.initialState));
  return { threadId, sessionId, interruptId: interrupt!.id };
}

const fromThisSite = { origin: 'http://localhost:3000', host: 'localhost:3000', 'content-type': 'application/json' };

/** The store calls made before the first write, and the decision's outcome. */
async function readsBeforeWrite(approve: () => Promise<Response>) {
  calls = [];
  const response = await approve();
  const firstWrite = calls.findIndex((name) => WRITES.has(name));
  return { status: response.status, body: (await response.json()) as { decision?: { status: string } }, reads: calls.slice(0, firstWrite) };
}

describe('an approve reads each thing once', () => {
  it('through the chat: the interrupt, the session and the log, then the one write', async () => {
    const { threadId, interruptId } = await pausedThread();
    const { status, body, reads } = await readsBeforeWrite(() =>
      handleChatDecision(
        new Request('http://localhost:3000/api/agents/helpdesk/decide', {
          method: 'POST',
          headers: fromThisSite,
          body: JSON.stringify({ threadId, interruptId, action: 'approve' }),
        }),
        'helpdesk',
      ),
    );
    expect(status).toBe(200);
    expect(body.decision?.status).toBe('approved');
    expect(reads).toEqual(['findInterrupt', 'getSession', 'readEvents']);
  });

  it('through /api/hitl: the same three', async () => {
    const { interruptId } = await pausedThread();
    const { status, body, reads } = await readsBeforeWrite(() =>
      decide(
        new Request(`http://localhost:3000/api/hitl/${interruptId}/approve`, { method: 'POST', headers: fromThisSite, body: '{}' }),
        interruptId,
        'approve',
      ).then((result) => result.response),
    );
    expect(status).toBe(200);
    expect(body.decision?.status).toBe('approved');
    expect(reads).toEqual(['findInterrupt', 'getSession', 'readEvents']);
  });
});
