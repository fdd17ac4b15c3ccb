// GET /api/hitl/decisions (docs/replay.md, "Exporting decisions") sees what the inbox sees: a
// key's own sessions' decisions, and the browsers' calls kept for key holders; never another
// key's. The route runs on a memory store with two keys configured.
import { tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { keyOwner } from '../../credentials/open-dev-mode';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import { decideInterrupt, loadView, pendingInterrupts, scopedSessionId, startRun, userMessage } from '../../runtime';
import { exportDecisions } from './decisions';

const store = createMemoryStore();
const saved = { keys: process.env.STACKBONE_API_KEYS, secret: process.env.STACKBONE_SECRET };

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
  process.env.STACKBONE_API_KEYS = 'alice=sk-alice-1,bob=sk-bob-2';
  process.env.STACKBONE_SECRET = 'a-test-secret-that-is-long-enough-000000';
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = store;
});

afterAll(() => {
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = undefined;
  for (const [name, value] of [
    ['STACKBONE_API_KEYS', saved.keys],
    ['STACKBONE_SECRET', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const close = tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => ({ closed: ticketId }) });
const agent = defineDeepAgent({
  name: 'desk',
  model: createScriptedModel(),
  instructions: 'x',
  tools: { close },
  toolApproval: { close: { policy: 'user-approval', approvers: 'key-holders' } },
});

/** A session of `ownerId` whose one call was approved by `deciderId` (a key holder). */
async function decidedSession(ownerId: string, ticketId: string, deciderId: string) {
  const sessionId = scopedSessionId(ownerId, ticketId);
  await (
    await startRun({ agent, store, sessionId, ownerId, source: 'agui', messages: [userMessage(`call close {"ticketId":"${ticketId}"}`)] })
  ).done;
  const [interrupt] = pendingInterrupts(await loadView(store, sessionId, {}));
  const decided = await decideInterrupt({
    store,
    findAgent: () => agent,
    interruptId: interrupt!.id,
    request: { status: 'approved' },
    by: { source: 'hitl', ownerId: deciderId, credential: 'key' },
  });
  await decided.continuation?.done;
}

const exported = async (key?: string) => {
  const response = await exportDecisions(new Request('http://localhost/api/hitl/decisions', { headers: key ? { authorization: `Bearer ${key}` } : {} }));
  const text = await response.text();
  return {
    status: response.status,
    tickets: response.ok
      ? text
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { argsAsked: { ticketId: string } }).argsAsked.ticketId)
      : text,
  };
};

describe('GET /api/hitl/decisions', () => {
  it("answers a key its own sessions' decisions and the browsers' calls kept for key holders, never another key's", async () => {
    const alice = keyOwner('sk-alice-1');
    const bob = keyOwner('sk-bob-2');
    await decidedSession(alice, 'T-alice', alice);
    await decidedSession(bob, 'T-bob', bob);
    await decidedSession('browser:4f1c0d2e-0000-4000-8000-000000000000', 'T-browser', alice);

    expect(await exported('sk-alice-1')).toEqual({ status: 200, tickets: ['T-alice', 'T-browser'] });
    expect(await exported('sk-bob-2')).toEqual({ status: 200, tickets: ['T-bob', 'T-browser'] });
    expect((await exported()).status).toBe(401);
    expect((await exported('sk-wrong')).status).toBe(401);
  });
});
