// The calls of one model step run concurrently; a call waiting for approval does not hold up
// the others; calls that share a lane run one at a time, in the order the model made them;
// the state changes of concurrent calls are merged, not lost.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type DeepAgentConfig } from '../../authoring';
import { createScriptedModel } from '../../models/scripted';
import { createMemoryStore } from '../../store/memory-store';
import { handlerContext } from '../tools/handler-context';
import { reduceAll } from '../session/reduce';
import { userMessage } from '../turn-control/server-session';
import { startRun } from '../turn-control/turns';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tools that note when they start and end; each one writes its own state key. */
function timedTools(log: string[]) {
  const timed = (name: string, ms: number) =>
    tool({
      inputSchema: z.object({}),
      execute: async () => {
        log.push(`${name}:start`);
        await sleep(ms);
        handlerContext().state[name] = `done by ${name}`;
        log.push(`${name}:end`);
        return { tool: name };
      },
    });
  return { slowA: timed('slowA', 60), slowB: timed('slowB', 30), gated: timed('gated', 1) };
}

function agentWith(log: string[], options: Partial<DeepAgentConfig> = {}) {
  return defineDeepAgent({
    name: 'concurrent',
    model: createScriptedModel(),
    instructions: 'x',
    tools: timedTools(log),
    toolApproval: { gated: 'user-approval' },
    ...options,
  });
}

const THREE_CALLS = 'call slowA {}; call slowB {}; call gated {}';

describe('concurrent tools', () => {
  it('two concurrent tools with one needing approval: the two run side by side, the third waits for its decision alone', async () => {
    const log: string[] = [];
    const agent = agentWith(log);
    const store = createMemoryStore();
    await (
      await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage(THREE_CALLS)] })
    ).done;

    // slowB started before slowA ended, and, being shorter, ended first.
    expect(log).toEqual(['slowA:start', 'slowB:start', 'slowB:end', 'slowA:end']);
    const paused = reduceAll(await store.readEvents('s1'), agent.initialState);
    expect(paused.status).toBe('interrupted');
    const [pending] = Object.values(paused.interrupts).map((state) => state.record);
    expect(pending).toMatchObject({ toolName: 'gated' });
    // Both drafts are in the state: neither call's change overwrote the other's.
    expect(paused.state).toMatchObject({ slowA: 'done by slowA', slowB: 'done by slowB' });
    const events = (await store.readEvents('s1')).map(({ event }) => event);
    const order = events.flatMap((event) =>
      event.type === 'tool_started' ? [`started ${event.toolName}`] : event.type === 'tool_result' ? [`result ${event.message.toolName}`] : [],
    );
    expect(order).toEqual(['started slowA', 'started slowB', 'result slowB', 'result slowA']);

    await (
      await startRun({
        agent,
        store,
        sessionId: 's1',
        ownerId: 'o1',
        source: 'agui',
        messages: [],
        decisions: [{ interruptId: pending!.id, status: 'resolved', payload: { approved: true } }],
      })
    ).done;
    expect(log.slice(4)).toEqual(['gated:start', 'gated:end']);
    const after = reduceAll(await store.readEvents('s1'), agent.initialState);
    expect(after.status).toBe('idle');
    expect(after.state).toMatchObject({ slowA: 'done by slowA', slowB: 'done by slowB', gated: 'done by gated' });
  });

  it("toolLane ordering: an agent's lane runs its calls one at a time, in the model's order", async () => {
    const log: string[] = [];
    const agent = agentWith(log, { toolLane: 'tools', toolApproval: {} });
    const store = createMemoryStore();
    await (
      await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage(THREE_CALLS)] })
    ).done;
    expect(log).toEqual(['slowA:start', 'slowA:end', 'slowB:start', 'slowB:end', 'gated:start', 'gated:end']);
  });

  it('a lane for some tools: those go one at a time, the others beside them', async () => {
    const log: string[] = [];
    const agent = agentWith(log, { toolLanes: { slowA: 'ledger', gated: 'ledger' }, toolApproval: {} });
    const store = createMemoryStore();
    await (
      await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage(THREE_CALLS)] })
    ).done;
    // slowB is in no lane: it runs beside slowA; gated waits for slowA, its lane's earlier call.
    expect(log.indexOf('slowB:start')).toBeLessThan(log.indexOf('slowA:end'));
    expect(log.indexOf('gated:start')).toBeGreaterThan(log.indexOf('slowA:end'));
    expect(() => agentWith(log, { toolLanes: { nope: 'x' } as never })).toThrow(/toolLanes names "nope"/);
  });
});

describe('preliminary tool outputs', () => {
  it('a tool whose execute is an async iterable streams each output, keeps them in the log, and its last one is the result', async () => {
    const agent = defineDeepAgent({
      name: 'streamer',
      model: createScriptedModel(),
      instructions: 'x',
      tools: {
        count: tool({
          inputSchema: z.object({}),
          async *execute() {
            for (let i = 1; i <= 3; i++) {
              yield { counted: i, done: i === 3 };
              await sleep(5);
            }
          },
        }),
      },
    });
    const store = createMemoryStore();
    const run = await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [userMessage('call count {}')] });
    const seen: string[] = [];
    for await (const part of run.parts) {
      if (part.type === 'tool-progress') seen.push(`progress ${JSON.stringify(part.output)}`);
      if (part.type === 'tool-result') seen.push(`result ${part.content}`);
    }
    await run.done;
    expect(seen).toEqual([
      'progress {"counted":1,"done":false}',
      'progress {"counted":2,"done":false}',
      'progress {"counted":3,"done":true}',
      'result {"counted":3,"done":true}',
    ]);
    const events = (await store.readEvents('s1')).map(({ event }) => event);
    expect(events.filter((event) => event.type === 'tool_progress').map((event) => (event as { output: unknown }).output)).toEqual([
      { counted: 1, done: false },
      { counted: 2, done: false },
      { counted: 3, done: true },
    ]);
    // The model reads only the final result.
    const view = reduceAll(await store.readEvents('s1'), agent.initialState);
    expect(view.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual(['{"counted":3,"done":true}']);
  });
});
