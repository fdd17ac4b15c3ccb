// Approvals that fail closed (docs/hitl.md, "Policies"; docs/internals/wires.md, "Stateless turns"): a
// tool gated by the AI SDK's own needsApproval waits for a person, the stricter of two
// policies wins, a policy that cannot be evaluated refuses the call, a stateless turn never
// runs a call kept for key holders, and a request can always be withdrawn.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type DeepAgent, type ToolApprovalSpec } from '../../authoring';
import { createMemoryStore } from '../../store/memory-store';
import type { EventStore } from '../../store/types';
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage } from '../../store/messages';
import { handlerContext } from '../tools/handler-context';
import type { RunPart } from '../stream/parts';
import { reduceAll } from '../session/reduce';
import { startRun } from '../turn-control/turns';
import type { RunRequest } from '../turn/run-request';
import { startStatelessRun } from '../turn/stateless-run';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

/** Every execution of a tool, as a side effect would see it. */
let ran: string[] = [];

function payAgent(options: { needsApproval?: unknown; policy?: ToolApprovalSpec; statelessApproval?: 'run' | 'deny'; amount?: z.ZodType } = {}): DeepAgent {
  const pay = tool({
    inputSchema: z.object({ amount: options.amount ?? z.number() }),
    execute: async ({ amount }) => {
      ran.push(`pay ${amount} (${handlerContext().event.toolCallId})`);
      return { paid: amount };
    },
  });
  if (options.needsApproval !== undefined) (pay as { needsApproval?: unknown }).needsApproval = options.needsApproval;
  return defineDeepAgent({
    name: 'payer',
    model: 'openai/gpt-4o-mini',
    instructions: 'x',
    tools: { pay },
    ...(options.policy !== undefined ? { toolApproval: { pay: options.policy } } : {}),
    ...(options.statelessApproval ? { statelessApproval: options.statelessApproval } : {}),
  });
}

let counter = 0;
const user = (content: string): ChatMessage => ({ id: `m${++counter}`, role: 'user', content });

async function drain(run: { parts: AsyncIterable<RunPart>; done: Promise<void> }): Promise<RunPart[]> {
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}

async function turn(store: EventStore, agent: DeepAgent, request: Partial<RunRequest>): Promise<RunPart[]> {
  return drain(await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [], ...request }));
}

const outcomeOf = (parts: RunPart[]) => {
  const last = parts.at(-1)!;
  if (last.type !== 'run-finished') throw new Error(`the run did not finish: ${JSON.stringify(last)}`);
  return last;
};
const interruptsOf = (parts: RunPart[]): InterruptRecord[] => outcomeOf(parts).interrupts ?? [];
const toolResults = async (store: EventStore) =>
  reduceAll(await store.readEvents('s1'), {}).messages.flatMap((message) => (message.role === 'tool' ? [message] : []));

async function payOnce(agent: DeepAgent, amount = 50) {
  ran = [];
  const store = createMemoryStore();
  const parts = await turn(store, agent, { messages: [user(`call pay {"amount": ${amount}}`)], runId: 'run-1' });
  return { store, parts };
}

describe("the AI SDK's needsApproval", () => {
  it('needsApproval: true pauses the call for a person; the tool runs only once approved', async () => {
    const agent = payAgent({ needsApproval: true });
    const { store, parts } = await payOnce(agent);
    const [interrupt] = interruptsOf(parts);
    expect(interrupt).toMatchObject({ reason: 'tool_call', toolName: 'pay' });
    expect(ran).toEqual([]);
    await turn(store, agent, { runId: 'run-2', decisions: [{ interruptId: interrupt!.id, status: 'approved' }] });
    expect(ran).toHaveLength(1);
  });

  it('a needsApproval function decides on the validated input', async () => {
    const agent = payAgent({ needsApproval: async (input: { amount: number }) => input.amount > 100, amount: z.coerce.number() });
    expect(interruptsOf((await payOnce(agent, 20)).parts)).toEqual([]);
    expect(ran).toEqual([expect.stringMatching(/^pay 20 /)]);
    expect(interruptsOf((await payOnce(agent, 500)).parts)).toHaveLength(1);
    expect(ran).toEqual([]);
  });

  it('the stricter of toolApproval and needsApproval wins, whichever says so', async () => {
    expect(interruptsOf((await payOnce(payAgent({ needsApproval: true, policy: 'approved' }))).parts)).toHaveLength(1);
    expect(interruptsOf((await payOnce(payAgent({ needsApproval: () => true, policy: () => 'approved' }))).parts)).toHaveLength(1);
    expect(interruptsOf((await payOnce(payAgent({ needsApproval: false, policy: 'user-approval' }))).parts)).toHaveLength(1);
    expect(ran).toEqual([]);
    // Neither asks: it runs.
    await payOnce(payAgent({ needsApproval: false, policy: 'approved' }));
    expect(ran).toHaveLength(1);
  });
});

describe('a policy that cannot be evaluated', () => {
  for (const [name, options] of [
    [
      'a toolApproval function that throws',
      {
        policy: () => {
          throw new Error('the rules service is down');
        },
      },
    ],
    [
      'a needsApproval function that rejects',
      {
        needsApproval: async () => {
          throw new Error('the rules service is down');
        },
      },
    ],
    ['a policy function that answers nonsense', { policy: () => 'maybe' as never }],
    ['a needsApproval function that answers a string', { needsApproval: () => 'yes' }],
  ] as const) {
    it(`${name}: the call does not run, the model is told why, the turn goes on`, async () => {
      const { store, parts } = await payOnce(payAgent(options as never));
      expect(ran).toEqual([]);
      expect(outcomeOf(parts).outcome.type).toBe('success');
      const [result] = await toolResults(store);
      expect(result).toMatchObject({ toolName: 'pay', isError: true });
      expect(result!.content).toMatch(/^Not run: the approval policy of pay could not be evaluated, so the call was refused \(ref [0-9a-f]{8};/);
      // The cause stays in the server's log, not in what clients and the model read.
      expect(JSON.stringify(parts)).not.toContain('rules service');
    });
  }

  it("'denied' never runs the call and asks nobody", async () => {
    const { store, parts } = await payOnce(payAgent({ policy: 'denied' }));
    expect(ran).toEqual([]);
    expect(interruptsOf(parts)).toEqual([]);
    expect((await toolResults(store))[0]!.content).toMatch(/not allowed/);
  });

  it('an unknown policy name is refused when the agent is defined', () => {
    expect(() => payAgent({ policy: 'deny' as never })).toThrow(/the policy of "pay" is "deny"/);
    expect(() => payAgent({ needsApproval: 'always' })).toThrow(/needsApproval must be a boolean or a function/);
  });
});

describe('stateless turns', () => {
  async function stateless(agent: DeepAgent) {
    ran = [];
    const parts = await drain(
      await startStatelessRun({ agent, ownerId: 'o1', source: 'openai', history: [user('call pay {"amount": 50}')], durableHint: 'Send the session header.' }),
    );
    const results = parts.flatMap((part) => (part.type === 'tool-result' ? [part] : []));
    return { parts, results };
  }

  it("run an ordinary approval's tool by default (nothing could wake a pause)", async () => {
    await stateless(payAgent({ policy: 'user-approval' }));
    expect(ran).toHaveLength(1);
  });

  it("refuse it when the agent says statelessApproval: 'deny', telling the caller how to get a durable turn", async () => {
    const { results } = await stateless(payAgent({ policy: 'user-approval', statelessApproval: 'deny' }));
    expect(ran).toEqual([]);
    expect(JSON.stringify(results)).toContain("Not run: pay needs a person's approval, and a stateless request cannot wait for one. Send the session header.");
  });

  it('never run a call kept for key holders, whatever the agent says', async () => {
    const { results } = await stateless(payAgent({ policy: { policy: 'user-approval', approvers: 'key-holders' }, statelessApproval: 'run' }));
    expect(ran).toEqual([]);
    expect(JSON.stringify(results)).toContain("needs a person's approval by a key holder");
  });

  it('never run a needsApproval tool whose policy fails, nor a denied one', async () => {
    await stateless(
      payAgent({
        needsApproval: () => {
          throw new Error('down');
        },
      }),
    );
    await stateless(payAgent({ policy: 'denied' }));
    expect(ran).toEqual([]);
  });
});

describe('withdrawing a request', () => {
  it('a cancel is accepted after the tool changed (where approving is refused) and after a deploy without a TTL', async () => {
    const { store, parts } = await payOnce(payAgent({ policy: 'user-approval' }));
    const [interrupt] = interruptsOf(parts);
    const changed = payAgent({ policy: 'user-approval', amount: z.string() });
    await expect(turn(store, changed, { runId: 'run-2', decisions: [{ interruptId: interrupt!.id, status: 'approved' }] })).rejects.toMatchObject({
      code: 'tool_schema_changed',
    });
    const cancelled = await turn(store, changed, { runId: 'run-3', decisions: [{ interruptId: interrupt!.id, status: 'cancelled' }] });
    expect(outcomeOf(cancelled).outcome.type).toBe('cancelled');
    expect(ran).toEqual([]);
    const view = reduceAll(await store.readEvents('s1'), {});
    expect(view.interrupts[interrupt!.id]!.decision).toMatchObject({ status: 'cancelled' });
    expect(view.status).toBe('idle');
  });

  it('a cancel is accepted when the tool is gone from the agent altogether', async () => {
    const { store, parts } = await payOnce(payAgent({ policy: 'user-approval' }));
    const [interrupt] = interruptsOf(parts);
    const gone = defineDeepAgent({ name: 'payer', model: 'openai/gpt-4o-mini', instructions: 'x', tools: {} });
    const cancelled = await turn(store, gone, { runId: 'run-2', decisions: [{ interruptId: interrupt!.id, status: 'cancelled' }] });
    expect(outcomeOf(cancelled).outcome.type).toBe('cancelled');
    expect(ran).toEqual([]);
  });
});
