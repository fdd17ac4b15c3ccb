// A replay end to end in this process (docs/replay.md): it never runs a tool's execute — a dry
// run or the recorded result answers, or "not run" — recorded quorum votes decide again, and a
// question nobody answered in the recording is withdrawn and reported.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type DeepAgentConfig } from '../../authoring';
import type { DecisionActor } from '../../store/pauses';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import { pendingInterrupts, loadView } from '../session';
import { requestInput } from '../tools';
import { decideInterrupt, startRun } from '../turn-control';
import { userMessage } from '../turn-control/server-session';
import { replay } from './replay';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

/** Tools that count each real run: a replay must leave the counts alone. */
function countedAgent(runs: Record<string, number>, options: Partial<DeepAgentConfig> = {}) {
  const counted = (name: string) =>
    tool({
      inputSchema: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        runs[name] = (runs[name] ?? 0) + 1;
        return { ran: name, key, summary: `${name} ran for ${key}.` };
      },
    });
  return defineDeepAgent({
    name: 'counted',
    model: createScriptedModel(),
    instructions: 'x',
    tools: {
      dry: counted('dry'),
      recorded: counted('recorded'),
      twoApprovers: counted('twoApprovers'),
      ask: tool({
        inputSchema: z.object({ question: z.string() }),
        execute: async ({ question }) => requestInput({ message: question, responseSchema: z.object({ answer: z.string() }) }),
      }),
    },
    dryRun: {
      dry: ({ key }: { key: string }) => ({ ran: 'dry', key, summary: `dry ran for ${key}.` }),
      ask: ({ question }: { question: string }) => requestInput({ message: question, responseSchema: z.object({ answer: z.string() }) }),
    },
    toolApproval: { recorded: 'user-approval', twoApprovers: { policy: 'user-approval', quorum: 2, approvers: ['key:desk'] } },
    ...options,
  });
}

const voter = (n: number): DecisionActor => ({ source: 'hitl', credential: 'link', recipient: `desk-${n}` });

async function record(
  agent: ReturnType<typeof countedAgent>,
  turns: string[],
  answer: (toolName: string, n: number) => { status: 'approved' | 'denied'; payload?: unknown },
) {
  const store = createMemoryStore();
  const sessionId = 'o1/recorded';
  let votes = 0;
  for (const text of turns) {
    await (
      await startRun({ agent, store, sessionId, ownerId: 'o1', source: 'agui', messages: [userMessage(text)] })
    ).done;
    for (
      let pending = pendingInterrupts(await loadView(store, sessionId, {}));
      pending.length > 0;
      pending = pendingInterrupts(await loadView(store, sessionId, {}))
    ) {
      const [interrupt] = pending;
      const result = await decideInterrupt({
        store,
        findAgent: () => agent,
        interruptId: interrupt!.id,
        request: answer(interrupt!.toolName, ++votes),
        by: voter(votes),
      });
      await result.continuation?.done;
    }
  }
  return store.readEvents(sessionId);
}

describe('replay', () => {
  it('never runs a tool: a dry run, the recorded result, or "not run" answers; recorded quorum votes decide again', async () => {
    const runs: Record<string, number> = {};
    const agent = countedAgent(runs);
    const events = await record(agent, ['call dry {"key":"a"}', 'call recorded {"key":"b"}', 'call twoApprovers {"key":"c"}'], () => ({ status: 'approved' }));
    expect(runs).toEqual({ dry: 1, recorded: 1, twoApprovers: 1 });

    const report = await replay(events, agent);
    expect(report.identical).toBe(true);
    expect(report.replayed.answers).toEqual(['dry ran for a.', 'recorded ran for b.', 'twoApprovers ran for c.']);
    expect(runs).toEqual({ dry: 1, recorded: 1, twoApprovers: 1 });

    // A call the recording never made has no recorded result: it is not run, and says so.
    const other = await replay(events, countedAgent(runs, { toolApproval: { twoApprovers: { policy: 'user-approval', quorum: 3, approvers: ['key:desk'] } } }));
    expect(other.decisions.notApplied).toEqual([
      { toolName: 'twoApprovers', input: { key: 'c' }, status: 'approved', why: 'the recorded votes no longer reach its quorum' },
    ]);
    expect(runs).toEqual({ dry: 1, recorded: 1, twoApprovers: 1 });
  });

  it('answers a question with the recorded answer; a question nobody answered is reported and withdrawn', async () => {
    const runs: Record<string, number> = {};
    const agent = countedAgent(runs);
    const events = await record(agent, ['call ask {"question":"Which key?"}', 'call dry {"key":"q"}'], () => ({
      status: 'approved',
      payload: { answer: 'k1' },
    }));
    expect(await replay(events, agent)).toMatchObject({ identical: true, replayed: { calls: [{ toolName: 'ask' }, { toolName: 'dry' }] } });

    // An agent whose dry run of `dry` asks first: a question the recording never answered.
    const asking = countedAgent(runs, { dryRun: { dry: () => requestInput({ message: 'Sure?', responseSchema: z.object({ answer: z.string() }) }) } });
    const report = await replay(events, asking);
    expect(report.decisions.unrecorded).toEqual([{ toolName: 'dry', input: { key: 'q' }, reason: 'input_required' }]);
    expect(report.identical).toBe(false);
    expect(runs).toEqual({ dry: 1 });
  });

  it('a call the recording has no result for (it was denied) is not run, and says so', async () => {
    const runs: Record<string, number> = {};
    const asked = await record(countedAgent(runs), ['call recorded {"key":"z"}'], () => ({ status: 'denied' }));
    const report = await replay(asked, countedAgent(runs, { toolApproval: {} }));
    expect(report.approvals.noLongerNeeded).toEqual([{ toolName: 'recorded', input: { key: 'z' } }]);
    expect(report.decisions.unused).toEqual([{ toolName: 'recorded', input: { key: 'z' }, status: 'denied' }]);
    expect(report.finalAnswer?.after).toContain('recorded was not run in replay (no dryRun).');
    expect(runs).toEqual({});
  });
});
