// The decision export's lines (docs/replay.md, "Exporting decisions"): the call as asked and as
// run, who decided, the votes, when it opened and was decided — from the log, oldest decision first.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import { loadView, pendingInterrupts } from '../session';
import { handlerContext } from '../tools';
import { decideInterrupt, startRun } from '../turn-control';
import { userMessage } from '../turn-control/server-session';
import { decisionExport } from './decision-export';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

// It notes each refund in the session's state: the log's patches apply to the agent's initial state.
const refund = tool({
  inputSchema: z.object({ amount: z.number() }),
  execute: async ({ amount }) => {
    (handlerContext().state.refunds as number[]).push(amount);
    return { refunded: amount };
  },
});
const agent = defineDeepAgent({
  name: 'exporting',
  model: createScriptedModel(),
  instructions: 'x',
  tools: { refund },
  initialState: { refunds: [] },
  toolApproval: { refund: { policy: 'user-approval', allowEdit: true } },
});

describe('decisionExport', () => {
  it('one line per decision: edited arguments as run, a rejection with its reason and no run, the decider and the latency', async () => {
    const store = createMemoryStore();
    const sessionId = 'o1/exported';
    // As the route's requestActor makes it: the owner it spoke for, the key's name, the client's own label.
    const by = { source: 'hitl' as const, credential: 'key' as const, keyName: 'alice', ownerId: 'o1', client: 'cli' };
    for (const [text, request] of [
      ['call refund {"amount":20}', { status: 'approved' as const, editedArgs: { amount: 5 } }],
      ['call refund {"amount":900}', { status: 'denied' as const, reason: 'Too much' }],
    ] as const) {
      await (
        await startRun({ agent, store, sessionId, ownerId: 'o1', source: 'agui', messages: [userMessage(text)] })
      ).done;
      const [interrupt] = pendingInterrupts(await loadView(store, sessionId, agent.initialState));
      await (
        await decideInterrupt({ store, findAgent: () => agent, interruptId: interrupt!.id, request, by })
      ).continuation?.done;
    }

    // Read as another server process would: folded from the log (this store's cached views are not its).
    const reader = { ...store };
    const lines = await decisionExport(reader, await reader.listPendingInterrupts('o1', { status: 'decided' }), () => agent.initialState);
    expect(lines).toEqual([
      expect.objectContaining({
        session: 'exported',
        agent: 'exporting',
        toolName: 'refund',
        argsAsked: { amount: 20 },
        argsRun: { amount: 5 },
        status: 'approved',
        reason: null,
      }),
      expect.objectContaining({ argsAsked: { amount: 900 }, argsRun: null, status: 'denied', reason: 'Too much', expired: false, votes: [] }),
    ]);
    // Who decided, as the server found it: not the client's own label.
    expect(lines[0]!.by).toEqual({ source: 'hitl', credential: 'key', keyName: 'alice', ownerId: 'o1' });
    for (const line of lines) expect(line.latencyMs).toBe(Date.parse(line.decidedAt) - Date.parse(line.openedAt));
    expect(await decisionExport(store, await store.listPendingInterrupts('o2', { status: 'decided' }), () => agent.initialState)).toEqual([]);
  });
});
