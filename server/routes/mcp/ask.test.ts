// An ask_<agent> call (docs/mcp.md, "MCP out") whose turn pauses, when the decision is made
// elsewhere (Studio, /api/hitl, another client) before the call has looked at the session
// again: the call answers with what the decision started, at once. The agent's one tool waits
// for its owner; the store is a memory store that lets the decision in at that moment.
import { tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { noKeepAlive } from '../../http/keep-alive';
import { createScriptedModel } from '../../models/scripted';
import { decideInterrupt } from '../../runtime';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import { ask, type ClientReach } from './ask';

const closed: string[] = [];
const agent = defineDeepAgent({
  name: 'desk',
  model: createScriptedModel(),
  instructions: 'x',
  tools: {
    close: tool({
      inputSchema: z.object({ ticketId: z.string() }),
      execute: async ({ ticketId }) => {
        closed.push(ticketId);
        return { closed: ticketId };
      },
    }),
  },
  toolApproval: { close: { policy: 'user-approval' } },
});

const caller = { ownerId: 'mcp-owner', credential: 'key' as const, origin: 'http://localhost:3000' };

/**
 * A memory store on which, once a run has paused, the next read of a session record first lets
 * someone else approve the pause and waits for what that started to end.
 */
function decidedElsewhereOnNextRead(): EventStore {
  const store = createMemoryStore();
  let paused: string | undefined;
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'append') {
        return async (...args: Parameters<EventStore['append']>) => {
          const result = await target.append(...args);
          for (const event of args[2]) if (event.type === 'run_finished' && event.outcome.type === 'interrupt') paused = event.outcome.interruptIds[0];
          return result;
        };
      }
      if (name === 'getSession') {
        return async (sessionId: string) => {
          const interruptId = paused;
          paused = undefined;
          if (interruptId) {
            const decided = await decideInterrupt({
              store: target,
              findAgent: () => agent,
              interruptId,
              request: { status: 'approved' },
              by: { source: 'hitl', ownerId: caller.ownerId, credential: 'key' },
            });
            await decided.continuation?.done;
          }
          return target.getSession(sessionId);
        };
      }
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}

describe('an ask_<agent> call whose pause is decided elsewhere at once', () => {
  const store = decidedElsewhereOnNextRead();
  beforeAll(() => {
    process.env.STACKBONE_MODEL = 'scripted';
    (globalThis as { __stackboneStore?: unknown }).__stackboneStore = store;
  });
  afterAll(() => {
    (globalThis as { __stackboneStore?: unknown }).__stackboneStore = undefined;
  });

  it('answers with what the decision started, without waiting for a decision already made', async () => {
    const linksShown: string[] = [];
    const reach: ClientReach = {
      keepAlive: noKeepAlive,
      waitMs: 5_000,
      link: async ({ elicitationId }) => {
        linksShown.push(elicitationId);
        return true;
      },
    };
    const started = Date.now();
    const result = await ask(agent, caller, { message: 'call close {"ticketId":"T-9"}' }, reach);
    expect(Date.now() - started).toBeLessThan(reach.waitMs);
    expect(closed).toEqual(['T-9']);
    expect(result).toMatchObject({ status: 'done', waiting: [] });
    expect(result.text.join('\n')).toContain('T-9');
    // Decided before the call looked again: there was nothing to show a link for.
    expect(linksShown).toEqual([]);
  });
});
