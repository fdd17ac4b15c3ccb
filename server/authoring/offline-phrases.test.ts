// An agent's own offline phrases (server/authoring/offline-phrases.ts) through the runtime and the scripted
// model: what a person typing into a fresh agent's chat sees with no model key.
import { tool } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent, type DeepAgent } from './define';
import type { ChatMessage } from '../store/messages';
import { startRun, type RunPart } from '../runtime';
import { createMemoryStore } from '../store/memory-store';

beforeAll(() => {
  process.env.STACKBONE_MODEL = 'scripted';
});

const sent: { customerId: string; amount: number }[] = [];
const tools = {
  lookUpInvoice: tool({
    inputSchema: z.object({ invoiceId: z.string() }),
    execute: async ({ invoiceId }) => ({ invoiceId, summary: `Invoice ${invoiceId} is open.` }),
  }),
  sendInvoice: tool({
    inputSchema: z.object({ customerId: z.string(), amount: z.number() }),
    execute: async (input) => (sent.push(input), { sent: true }),
  }),
};
const invoicePhrase = {
  example: 'invoice cust_7 for 120',
  pattern: /^invoice\s+(\S+)\s+for\s+\$?(\d+(?:\.\d+)?)$/i,
  call: 'sendInvoice',
  input: (m: RegExpMatchArray) => ({ customerId: m[1], amount: Number(m[2]) }),
};
const billing = defineDeepAgent({
  name: 'billing',
  model: 'openai/gpt-4o-mini',
  tools,
  toolApproval: { sendInvoice: 'user-approval' },
  offline: { phrases: [invoicePhrase] },
});

let counter = 0;
async function say(agent: DeepAgent, content: string): Promise<RunPart[]> {
  const message: ChatMessage = { id: `m${++counter}`, role: 'user', content };
  const run = await startRun({ agent, store: createMemoryStore(), sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [message] });
  const parts: RunPart[] = [];
  for await (const part of run.parts) parts.push(part);
  await run.done;
  return parts;
}
const replyText = (parts: RunPart[]) => parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('');

describe("an agent's offline phrases", () => {
  it('make the call they name: the phrase pauses on its approval with the arguments it read', async () => {
    const parts = await say(billing, 'Please invoice cust_7 for $120.');
    const last = parts.at(-1)!;
    expect(last.type === 'run-finished' && last.interrupts?.map(({ toolName, input }) => ({ toolName, input }))).toEqual([
      { toolName: 'sendInvoice', input: { customerId: 'cust_7', amount: 120 } },
    ]);
    expect(sent).toEqual([]);
  });

  it('are the chips of an empty chat when it names no suggestions', () => {
    expect(billing.suggestions).toEqual(['invoice cust_7 for 120']);
  });

  it("are what its fallback reply offers — never the demo agents' phrases", async () => {
    const text = replyText(await say(billing, 'hello'));
    expect(text).toContain('"invoice cust_7 for 120"');
    expect(text).not.toMatch(/order po_42|close ticket|search the docs|launch timing/);
  });

  it('are not the demo’s: a support phrase calls nothing for an agent that did not declare it', async () => {
    const desk = defineDeepAgent({
      name: 'desk',
      model: 'openai/gpt-4o-mini',
      tools: { refundPayment: tool({ inputSchema: z.object({ orderId: z.string(), amount: z.number() }) }) },
    });
    const parts = await say(desk, 'refund order po_42 for 19.99');
    expect(parts.some((part) => part.type === 'tool-call-start')).toBe(false);
  });

  it('with none declared, the fallback offers the call form with its own tools, and the call works', async () => {
    const bare = defineDeepAgent({ name: 'bare', model: 'openai/gpt-4o-mini', tools });
    const text = replyText(await say(bare, 'hello'));
    expect(text).toContain('write "call lookUpInvoice {…}" with its arguments as JSON (its tools: lookUpInvoice, sendInvoice)');
    expect(text).not.toMatch(/plan a launch|order po_42/);
    expect(replyText(await say(bare, 'call lookUpInvoice {"invoiceId":"inv_3"}'))).toContain('Invoice inv_3 is open.');
  });

  it('are checked when the agent is defined', () => {
    const define = (phrase: object) => () =>
      defineDeepAgent({ name: 'billing', model: 'openai/gpt-4o-mini', tools, offline: { phrases: [{ ...invoicePhrase, ...phrase }] } });
    expect(define({ pattern: /invoice\s+(\S+)\s+for\s+(\d+)$/i })).toThrow(/must be anchored at both ends/);
    expect(define({ pattern: /^invoice\s+(\S+)\s+for\s+(\d+)$/gi })).toThrow(/must not have the g or y flag/);
    expect(define({ example: 'bill cust_7 120' })).toThrow(/does not match its own pattern/);
    expect(define({ call: 'sendInvoices' })).toThrow(/call names "sendInvoices", which is not one of its tools/);
  });
});
