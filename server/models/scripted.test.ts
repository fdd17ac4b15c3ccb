// The scripted model driven through the real AI SDK streamText: what the runtime will see.
import { APICallError, streamText, tool, type ModelMessage, type TextStreamPart, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import taskboard from '../../tests/fixtures/agents/taskboard';
import { helpdeskPhrases } from '../../tests/fixtures/agents/helpdesk-phrases';
import { createScriptedModel, reasoningSignature, SCRIPTED_PROVIDER } from './scripted';
import { MARKDOWN_DEMO, MARKDOWN_DEMO_PACE_MS } from './scripted-markdown';
import {
  decideReply,
  MAX_CALL_JSON_DEPTH,
  MAX_CALLS_PER_STEP,
  MAX_PHRASE_TEXT_CHARS,
  phraseMatchWork,
  type OfferedTools,
  type ScriptedReply,
} from './scripted-reply';

/** The fixture agents' own phrases (each agent's `offline`), as the runtime hands them to the model for those agents. */
const AGENT_PHRASES = [...Object.values(helpdeskPhrases), ...taskboard.offline.phrases];

// No execute anywhere: the step stops at the tool call, as with approval-gated or frontend tools.
const helpdeskTools = {
  lookupOrder: tool({ inputSchema: z.object({ orderId: z.string() }) }),
  refundPayment: tool({ inputSchema: z.object({ orderId: z.string(), amount: z.number() }) }),
  closeTicket: tool({ inputSchema: z.object({ ticketId: z.string() }) }),
};
const plannerTools = {
  write_todos: tool({
    inputSchema: z.object({ todos: z.array(z.object({ id: z.string(), title: z.string(), status: z.enum(['pending', 'in_progress', 'done']) })) }),
  }),
  delegate_task: tool({ inputSchema: z.object({ agent: z.enum(['librarian', 'writer']), task: z.string() }) }),
  ask_user: tool({ inputSchema: z.object({ question: z.string() }) }),
  setTheme: tool({ inputSchema: z.object({ theme: z.enum(['light', 'dark']) }) }), // a frontend tool
};
const allTools = { ...helpdeskTools, ...plannerTools };

interface Run {
  parts: TextStreamPart<ToolSet>[];
  deltas: string[];
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  errors: unknown[];
}

async function run(
  input: string | ModelMessage[],
  options: { tools?: ToolSet; delayMs?: number; abortSignal?: AbortSignal; modelId?: string } = {},
): Promise<Run> {
  const result = streamText({
    model: createScriptedModel({ delayMs: options.delayMs, modelId: options.modelId, phrases: AGENT_PHRASES }),
    tools: options.tools ?? allTools,
    ...(typeof input === 'string' ? { prompt: input } : { messages: input }),
    abortSignal: options.abortSignal,
    onError: () => {}, // errors are asserted from the stream parts instead of logged
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.stream) parts.push(part);
  const deltas = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : []));
  return {
    parts,
    deltas,
    text: deltas.join(''),
    toolCalls: parts.flatMap((p) => (p.type === 'tool-call' ? [{ toolCallId: p.toolCallId, toolName: p.toolName, input: p.input }] : [])),
    errors: parts.flatMap((p) => (p.type === 'error' ? [p.error] : [])),
  };
}

const callsOf = (r: Run) => r.toolCalls.map(({ toolName, input }) => ({ toolName, input }));

describe('scripted model: shape', () => {
  it('is a v4 language model marked as scripted', () => {
    const model = createScriptedModel({ modelId: 'openai/gpt-4o-mini' });
    expect(model.specificationVersion).toBe('v4');
    expect(model.provider).toBe(SCRIPTED_PROVIDER);
    expect(model.modelId).toBe('openai/gpt-4o-mini');
  });

  it('says which model it was asked as, so a chosen model is seen to take effect', async () => {
    expect((await run('which model', { modelId: 'anthropic/claude-sonnet-4-6' })).text).toBe(
      'I am the offline scripted model, standing in for anthropic/claude-sonnet-4-6.',
    );
    expect((await run('What model are you?', { modelId: 'openai/gpt-4o-mini' })).text).toBe(
      'I am the offline scripted model, standing in for openai/gpt-4o-mini.',
    );
    expect((await run('which model', { modelId: 'scripted' })).text).toBe('I am the offline scripted model.');
    expect((await run('which model is best for essays')).text).not.toMatch(/^I am the offline/);
  });
});

describe('scripted model: text', () => {
  it('streams a friendly reply word by word that quotes the user and names what to try', async () => {
    const r = await run('hi there');
    expect(r.deltas.length).toBeGreaterThan(5);
    expect(r.text).toMatch(/^You said: "hi there"\./);
    expect(r.text).toContain('"look up order po_42"');
    expect(r.text).toContain('"refund order po_42 for 19.99"');
    expect(r.toolCalls).toEqual([]);
    // A person is not offered the test commands.
    expect(r.text).not.toMatch(/tokens|call lookupOrder/);
  });

  it('offers a tool call when no phrase fits the tools on offer, and says so when there are none', async () => {
    const r = await run('hello', { tools: { recordEffect: tool({ inputSchema: z.object({ key: z.string() }) }) } });
    expect(r.text).toContain('write "call recordEffect {…}" with its arguments as JSON');
    expect((await run('hello', { tools: {} })).text).toContain('This agent has no tools');
  });

  it('only suggests phrases for the tools on offer', async () => {
    const r = await run('hello', { tools: { closeTicket: helpdeskTools.closeTicket } });
    expect(r.text).toContain('"close ticket T-7"');
    expect(r.text).not.toContain('refund');
  });

  it('is deterministic', async () => {
    expect((await run('what can you do?')).text).toBe((await run('what can you do?')).text);
  });

  it('"reply with 2000 tokens" yields exactly 2000 deltas', async () => {
    const r = await run('reply with 2000 tokens');
    expect(r.deltas).toHaveLength(2000);
    expect(r.deltas[0]).toBe('token1');
    expect(r.deltas[1999]).toBe(' token2000');
    expect(r.text.split(' ')).toHaveLength(2000);
  });

  it('"say 3 words" works too', async () => {
    expect((await run('say 3 words')).deltas).toEqual(['token1', ' token2', ' token3']);
  });

  it('"show me markdown" streams a markdown reply word by word, paced, with every kind of block', async () => {
    const started = Date.now();
    const r = await run('Show me markdown!', { tools: {} });
    expect(r.text).toBe(MARKDOWN_DEMO);
    expect(r.deltas.length).toBeGreaterThan(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual((r.deltas.length - 1) * MARKDOWN_DEMO_PACE_MS * 0.9);
    expect(r.text).toMatch(/^## /);
    for (const piece of ['**markdown**', '`po_42`', '\n- ', '| --- |', '```ts\n', '](https://']) expect(r.text).toContain(piece);
    expect(r.toolCalls).toEqual([]);
    expect(decideReply([{ role: 'user', content: [{ type: 'text', text: 'markdown demo' }] }], new Map())).toMatchObject({ kind: 'text', text: MARKDOWN_DEMO });
  });
});

describe('scripted model: attachments', () => {
  it('says which files reached it, with their kind and size, and what the text said', async () => {
    const r = await run([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'file', data: new Uint8Array(12 * 1024), mediaType: 'image/png', filename: 'photo.png' },
          { type: 'file', data: new Uint8Array(70), mediaType: 'application/pdf', filename: 'notes.pdf' },
        ],
      },
    ]);
    expect(r.text).toBe('I got photo.png (an image, 12 KB) and notes.pdf (a PDF, 70 B). You said: "What is this?".');
    expect(r.toolCalls).toEqual([]);
  });
});

describe('scripted model: the generic call rule', () => {
  it('calls the named tool with the JSON arguments', async () => {
    const r = await run('call refundPayment {"orderId":"po_7","amount":5.5}');
    expect(callsOf(r)).toEqual([{ toolName: 'refundPayment', input: { orderId: 'po_7', amount: 5.5 } }]);
    expect(r.toolCalls[0].toolCallId).toMatch(/^call_[0-9a-f]+$/);
    expect(r.text).toBe('');
  });

  it('"call a {…}; call b {…}" makes both calls in one step', async () => {
    const r = await run('call lookupOrder {"orderId":"po_1"}; call closeTicket {"ticketId":"T-1"}');
    expect(callsOf(r)).toEqual([
      { toolName: 'lookupOrder', input: { orderId: 'po_1' } },
      { toolName: 'closeTicket', input: { ticketId: 'T-1' } },
    ]);
  });

  it('"slowly reply with N tokens" paces its deltas', async () => {
    const started = Date.now();
    expect((await run('slowly reply with 5 tokens')).deltas).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('calls a frontend tool the same way', async () => {
    const r = await run('call setTheme {"theme":"dark"}');
    expect(callsOf(r)).toEqual([{ toolName: 'setTheme', input: { theme: 'dark' } }]);
  });

  it('uses {} when no arguments follow', async () => {
    const r = await run('call noArgs', { tools: { noArgs: tool({ inputSchema: z.object({}) }) } });
    expect(callsOf(r)).toEqual([{ toolName: 'noArgs', input: {} }]);
  });

  it('explains a tool that is not on offer', async () => {
    const r = await run('call deleteEverything {}');
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toMatch(/cannot call deleteEverything/);
    expect(r.text).toContain('lookupOrder');
  });

  it('makes no call when a later clause names no tool, and quotes that clause', async () => {
    const r = await run('call lookupOrder {"orderId":"po_1"}; call !');
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toMatch(/could not read "call !" as a call/);
  });

  it('explains invalid JSON', async () => {
    const r = await run('call lookupOrder {orderId: po_1}');
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toMatch(/not valid JSON/);
  });
});

describe('scripted model: the limits of a `call`', () => {
  const offered: OfferedTools = new Map(Object.keys(allTools).map((name) => [name, {}]));
  const decide = (text: string): ScriptedReply => decideReply([{ role: 'user', content: [{ type: 'text', text }] }], offered, { phrases: AGENT_PHRASES });
  const lookups = (n: number) => Array.from({ length: n }, (_, i) => `call lookupOrder {"orderId":"po_${i + 1}"}`).join('; ');
  /** `call lookupOrder` with an object `levels` deep: {"a":{"a":…{}…}}. */
  const nested = (levels: number) => `call lookupOrder ${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

  it(`makes ${MAX_CALLS_PER_STEP} calls in one step`, async () => {
    const r = await run(lookups(MAX_CALLS_PER_STEP));
    expect(callsOf(r).map((c) => c.input)).toEqual(Array.from({ length: MAX_CALLS_PER_STEP }, (_, i) => ({ orderId: `po_${i + 1}` })));
  });

  it(`makes none at all when asked for ${MAX_CALLS_PER_STEP + 1}, and says the limit`, async () => {
    const r = await run(lookups(MAX_CALLS_PER_STEP + 1));
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toContain(`at most ${MAX_CALLS_PER_STEP} tool calls in one step`);
    expect(r.text).toContain(`asks for ${MAX_CALLS_PER_STEP + 1}`);
  });

  it('answers a million characters of "call lookupOrder {…}; …" with that text, at once', () => {
    const flood = lookups(50_000).slice(0, 1_000_000);
    const started = performance.now();
    const reply = decide(flood);
    expect(performance.now() - started).toBeLessThan(250);
    expect(reply.kind).toBe('text');
    expect(reply.kind === 'text' && reply.text).toContain(`at most ${MAX_CALLS_PER_STEP} tool calls in one step`);
  });

  it(`takes JSON arguments ${MAX_CALL_JSON_DEPTH} levels deep and refuses deeper ones, naming the limit`, () => {
    const deepest = decide(nested(MAX_CALL_JSON_DEPTH));
    expect(deepest.kind === 'tool-calls' && JSON.stringify(deepest.calls[0]!.input)).toBe(
      `${'{"a":'.repeat(MAX_CALL_JSON_DEPTH - 1)}{}${'}'.repeat(MAX_CALL_JSON_DEPTH - 1)}`,
    );
    const deeper = decide(nested(MAX_CALL_JSON_DEPTH + 1));
    expect(deeper.kind).toBe('text');
    expect(deeper.kind === 'text' && deeper.text).toContain(`nested deeper than ${MAX_CALL_JSON_DEPTH} levels`);
    // Arrays count as levels too, and a deep value in a later clause refuses the whole step.
    const deepArray = decide(
      `call lookupOrder {"orderId":"po_1"}; call closeTicket {"a":${'['.repeat(MAX_CALL_JSON_DEPTH)}${']'.repeat(MAX_CALL_JSON_DEPTH)}}`,
    );
    expect(deepArray.kind === 'text' && deepArray.text).toContain(`nested deeper than ${MAX_CALL_JSON_DEPTH} levels`);
  });

  it('answers arguments nested 100,000 levels deep with that text, not a stack overflow', async () => {
    const r = await run(nested(100_000));
    expect(r.errors).toEqual([]);
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toContain(`nested deeper than ${MAX_CALL_JSON_DEPTH} levels`);
  });
});

describe('scripted model: example phrases', () => {
  const cases: [string, string, unknown][] = [
    ['look up order po_42', 'lookupOrder', { orderId: 'po_42' }],
    ['lookup order po_42', 'lookupOrder', { orderId: 'po_42' }],
    ['Where is order po_42?', 'lookupOrder', { orderId: 'po_42' }],
    ['refund order po_42 for 19.99', 'refundPayment', { orderId: 'po_42', amount: 19.99 }],
    ['Please close ticket T-7.', 'closeTicket', { ticketId: 'T-7' }],
    [
      'plan a launch: write post, email list, tweet',
      'write_todos',
      {
        todos: [
          { id: '1', title: 'Write post', status: 'pending' },
          { id: '2', title: 'Email list', status: 'pending' },
          { id: '3', title: 'Tweet', status: 'pending' },
        ],
      },
    ],
    ['research vector databases', 'delegate_task', { agent: 'librarian', task: 'vector databases' }],
    ['ask me a question', 'ask_user', { question: 'What should I do next?' }],
    ['ask me about the launch date', 'ask_user', { question: 'What can you tell me about the launch date?' }],
  ];
  it.each(cases)('%s → %s', async (text, toolName, input) => {
    expect(callsOf(await run(text))).toEqual([{ toolName, input }]);
  });

  it('delegates to the subagent the delegation tool offers', async () => {
    const delegate_task = tool({ inputSchema: z.object({ agent: z.enum(['analyst']), task: z.string() }) });
    const r = await run('research pricing', { tools: { delegate_task } });
    expect(callsOf(r)).toEqual([{ toolName: 'delegate_task', input: { agent: 'analyst', task: 'pricing' } }]);
  });

  it('keeps "and" inside a todo list', async () => {
    const r = await run('plan a launch: write post, email list and tweet');
    expect(callsOf(r)).toEqual([
      { toolName: 'write_todos', input: { todos: ['Write post', 'Email list', 'Tweet'].map((title, i) => ({ id: String(i + 1), title, status: 'pending' })) } },
    ]);
  });

  it('makes two calls in one step', async () => {
    const r = await run('refund order po_1 for 5 and close ticket T-2');
    expect(callsOf(r)).toEqual([
      { toolName: 'refundPayment', input: { orderId: 'po_1', amount: 5 } },
      { toolName: 'closeTicket', input: { ticketId: 'T-2' } },
    ]);
    expect(new Set(r.toolCalls.map((c) => c.toolCallId)).size).toBe(2);
    const finish = r.parts.find((p) => p.type === 'finish-step');
    expect(finish && finish.type === 'finish-step' && finish.finishReason).toBe('tool-calls');
  });

  it('splits on ";" as well', async () => {
    const r = await run('look up order po_1; look up order po_2');
    expect(callsOf(r).map((c) => c.input)).toEqual([{ orderId: 'po_1' }, { orderId: 'po_2' }]);
  });

  it('does not split when a part is not a phrase', async () => {
    const r = await run('close ticket T-2 and sing a song');
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toMatch(/^You said/);
  });

  it('ignores a phrase whose tool is not on offer', async () => {
    const r = await run('refund order po_42 for 19.99', { tools: plannerTools });
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toMatch(/^You said/);
  });
});

describe('scripted model: after a tool result', () => {
  const history = (output: unknown): ModelMessage[] => [
    { role: 'user', content: 'refund order po_42 for 19.99' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'refundPayment', output: output as never }] },
  ];

  it('quotes the summary a result carries, as the tool wrote it, money and all', async () => {
    const r = await run(history({ type: 'json', value: { refunded: true, amount: 19.99, summary: 'Refunded $19.99 on order po_42 (refund re_1).' } }));
    expect(r.toolCalls).toEqual([]);
    expect(r.text).toBe('Refunded $19.99 on order po_42 (refund re_1).');
  });

  it('words the fields of a result without a summary, never as JSON', async () => {
    const r = await run(history({ type: 'json', value: { refunded: true, orderId: 'po_42', amount: 19.99, note: null } }));
    expect(r.text).toBe('Refund payment — refunded: yes; order ID: po_42; amount: 19.99; note: none.');
    // The runtime hands a stored result back as its JSON text: it reads the same.
    const stored = await run(history({ type: 'text', value: '{"refunded":false,"tags":["a","b","c"],"order":{"orderId":"po_7","lines":[{"sku":1}]}}' }));
    expect(stored.text).toBe('Refund payment — refunded: no; tags: a, b and c; order: (order ID: po_7, lines: 1 item).');
    expect(stored.text).not.toMatch(/[{}[\]"]/);
  });

  it('keeps a worded result short: long values and many fields are cut', async () => {
    const long = await run(history({ type: 'json', value: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field${i}`, 'x'.repeat(500)])) }));
    expect(long.text).toMatch(/^Refund payment — field0: x{100,120}…; field1: x+…; /);
    expect(long.text.length).toBeLessThanOrEqual(601);
    expect(long.text).toMatch(/…$/);
    const many = await run(history({ type: 'json', value: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field${i}`, i])) }));
    expect(many.text).toBe('Refund payment — field0: 0; field1: 1; field2: 2; field3: 3; field4: 4; field5: 5; field6: 6; field7: 7; and 4 more.');
  });

  it('still words the result when a system message follows it', async () => {
    const messages: ModelMessage[] = [...history({ type: 'text', value: 'ok' }), { role: 'system', content: 'state: {}' }];
    const result = streamText({ model: createScriptedModel(), tools: allTools, messages, allowSystemInMessages: true });
    expect(await result.text).toBe('Ok.');
  });

  it('does not repeat the call when the prompt ends with its own message', async () => {
    const r = await run([...history({ type: 'text', value: 'ok' }), { role: 'assistant', content: 'Ok.' }]);
    expect(r.toolCalls).toEqual([]);
  });

  it('says plainly that a tool failed, and why', async () => {
    const r = await run(history({ type: 'error-text', value: 'No order "po_x".' }));
    expect(r.text).toBe('I couldn\'t refund payment: No order "po_x".');
    const refused = await run(history({ type: 'error-text', value: 'Not run: the run was stopped before this call started.' }));
    expect(refused.text).toBe("I couldn't refund payment: the run was stopped before this call started.");
  });

  it('says plainly that a call was declined, with the reason given', async () => {
    expect((await run(history({ type: 'execution-denied', reason: 'too large' }))).text).toBe("I didn't refund payment: you declined it (“too large”).");
    // The runtime's own words for a declined approval (tool-gate.ts, denialResult), with and without a reason and data.
    expect((await run(history({ type: 'text', value: 'The user denied this call; it did not run.' }))).text).toBe("I didn't refund payment: you declined it.");
    expect((await run(history({ type: 'text', value: 'The user denied this call; it did not run. Reason: not yet Details: {"policyCode":"P-9"}' }))).text).toBe(
      "I didn't refund payment: you declined it (“not yet”); policy code: P-9.",
    );
    expect((await run(history({ type: 'text', value: 'The user declined to answer "Which colour?". Reason: skip it' }))).text).toBe(
      "I didn't refund payment: you declined to answer “Which colour?” (“skip it”).",
    );
  });
});

describe('scripted model: abort and errors', () => {
  it('stops streaming promptly when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const result = streamText({
      model: createScriptedModel({ delayMs: 20 }),
      prompt: 'reply with 500 tokens',
      abortSignal: controller.signal,
      onError: () => {},
    });
    const deltas: string[] = [];
    const types: string[] = [];
    for await (const part of result.stream) {
      types.push(part.type);
      if (part.type === 'text-delta') {
        deltas.push(part.text);
        if (deltas.length === 3) controller.abort();
      }
    }
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.length).toBeLessThan(10);
    expect(types).toContain('abort');
    expect(Date.now() - started).toBeLessThan(2_000); // 500 tokens × 20 ms would be 10 s
  });

  it('errors its own stream on abort, even in the middle of a wait', async () => {
    // streamText stops reading on abort by itself, so check the model's stream directly.
    const controller = new AbortController();
    const model = createScriptedModel({ delayMs: 5_000 });
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'reply with 50 tokens' }] }],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    expect((await reader.read()).value?.type).toBe('stream-start'); // the first part is not delayed
    const next = reader.read(); // now waiting 5 s for the next part
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('rejects a call whose signal is already aborted', async () => {
    const model = createScriptedModel();
    const signal = AbortSignal.abort();
    await expect(model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], abortSignal: signal })).rejects.toThrow();
  });

  it('"fail" surfaces as an APICallError', async () => {
    const r = await run('fail');
    expect(r.errors).toHaveLength(1);
    expect(APICallError.isInstance(r.errors[0])).toBe(true);
    expect(r.text).toBe('');
  });

  it('"simulate model error" does too, and doGenerate throws', async () => {
    expect(APICallError.isInstance((await run('simulate model error')).errors[0])).toBe(true);
    const model = createScriptedModel();
    await expect(model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'fail' }] }] })).rejects.toSatisfy(APICallError.isInstance);
  });

  it('"fail after 3 tokens" streams text, then errors', async () => {
    const r = await run('fail after 3 tokens');
    expect(r.deltas).toEqual(['token1', ' token2', ' token3']);
    expect(APICallError.isInstance(r.errors[0])).toBe(true);
  });
});

describe('scripted model: doGenerate', () => {
  it('returns the same reply as a stream, with usage in words', async () => {
    const model = createScriptedModel();
    const result = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'reply with 4 tokens' }] }] });
    expect(result.content).toEqual([{ type: 'text', text: 'token1 token2 token3 token4' }]);
    expect(result.finishReason.unified).toBe('stop');
    expect(result.usage.outputTokens.total).toBe(4);
    expect(result.usage.inputTokens.total).toBe(4);
  });
});

describe('scripted model: reasoning', () => {
  const thought = "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.";
  const signed = { scripted: { signature: reasoningSignature(thought) } };

  it('"think about X" reasons first, word by word, signs the reasoning last, then answers', async () => {
    const r = await run('think about launch timing');
    const reasoning = r.parts.flatMap((p) => (p.type === 'reasoning-delta' ? [p] : []));
    expect(reasoning.map((p) => p.text).join('')).toBe(thought);
    // As Anthropic signs a thinking block: in a delta of its own, after the text.
    expect(reasoning.at(-1)).toMatchObject({ text: '', providerMetadata: signed });
    const types = r.parts.map((p) => p.type);
    expect(types.indexOf('reasoning-end')).toBeLessThan(types.indexOf('text-start'));
    expect(r.text).toBe('Here is what I think about launch timing: it is worth a closer look.');
  });

  it('"think then <request>" reasons, then does what the request alone gets, its calls signed with the reasoning', async () => {
    const r = await run('think then look up order po_42', { tools: helpdeskTools });
    expect(callsOf(r)).toEqual([{ toolName: 'lookupOrder', input: { orderId: 'po_42' } }]);
    const reasoning = r.parts.flatMap((p) => (p.type === 'reasoning-delta' ? [p.text] : [])).join('');
    expect(reasoning).toBe('Before I act, let me think: the request is "look up order po_42". I\'ll do exactly that.');
    const call = r.parts.find((p) => p.type === 'tool-call');
    expect(call).toMatchObject({ providerMetadata: { scripted: { signature: reasoningSignature(reasoning) } } });
  });

  it('counts its reasoning in its output and as reasoning tokens, and the prompt up to its own last message as cached', async () => {
    const model = createScriptedModel();
    const result = await model.doGenerate({
      prompt: [
        { role: 'user', content: [{ type: 'text', text: 'hello there' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hi!' }] },
        { role: 'user', content: [{ type: 'text', text: 'think about launch timing' }] },
      ],
    });
    expect(result.content[0]).toEqual({ type: 'reasoning', text: thought, providerMetadata: signed });
    const words = thought.split(' ').length;
    expect(result.usage.outputTokens).toEqual({ total: words + 14, text: 14, reasoning: words });
    expect(result.usage.inputTokens).toEqual({ total: 7, noCache: 4, cacheRead: 3, cacheWrite: 0 });
  });

  it('refuses a prompt whose reasoning came back without its signature, as Anthropic does an unsigned thinking block', async () => {
    const model = createScriptedModel();
    const prompt = (providerOptions?: Record<string, Record<string, string>>) => [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'think about launch timing' }] },
      {
        role: 'assistant' as const,
        content: [
          { type: 'reasoning' as const, text: thought, providerOptions },
          { type: 'text' as const, text: 'Worth a look.' },
        ],
      },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'hello' }] },
    ];
    await expect(model.doGenerate({ prompt: prompt() })).rejects.toSatisfy((error) => APICallError.isInstance(error) && error.statusCode === 400);
    await expect(model.doGenerate({ prompt: prompt({ scripted: { signature: 'forged' } }) })).rejects.toSatisfy(APICallError.isInstance);
    await expect(model.doGenerate({ prompt: prompt(signed) })).resolves.toMatchObject({ finishReason: { unified: 'stop' } });
  });
});

describe('scripted model: adversarial text is decided in linear time', () => {
  // decideReply directly: the decision is the synchronous part, the one that blocks the event loop.
  const offered: OfferedTools = new Map(Object.keys(allTools).map((name) => [name, {}]));
  const decide = (text: string): ScriptedReply => decideReply([{ role: 'user', content: [{ type: 'text', text }] }], offered, { phrases: AGENT_PHRASES });
  const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  /** `count` words of the phrase vocabulary in a fixed pseudo-random order (a seeded LCG, so every run is the same). */
  const vocabularyWords = (count: number) => {
    const words = [
      'look',
      'up',
      'order',
      'po_42',
      'refund',
      'for',
      '19.99',
      'close',
      'ticket',
      'T-7',
      'plan',
      'a',
      'launch:',
      'write',
      'post,',
      'and',
      ';',
      ',',
      'research',
      'ask',
      'me',
      'to',
      'confirm',
      'please',
      'call',
      'remind',
      'in',
      '10',
      'seconds',
      'what',
      'time',
      'is',
      'it',
      '?',
      '.',
    ];
    let seed = 42;
    return Array.from({ length: count }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return words[seed % words.length];
    }).join(' ');
  };
  const isFallback = (reply: ScriptedReply) => reply.kind === 'text' && reply.text.startsWith('You said: "');
  const isTooLong = (reply: ScriptedReply) =>
    isFallback(reply) && reply.kind === 'text' && reply.text.includes(`more than the ${MAX_PHRASE_TEXT_CHARS} characters`);

  // [name, message, what the reply must be]
  const cases: [string, string, (reply: ScriptedReply) => boolean][] = [
    ['4,000 chars of "a , a , …"', repeatTo('a , ', 4_000), isTooLong],
    ['100,000 chars of "a , a , …"', repeatTo('a , ', 100_000), isTooLong],
    ['4,000 chars of "and and …"', repeatTo('and ', 4_000), isTooLong],
    ['100,000 chars of "and and …"', repeatTo('and ', 100_000), isTooLong],
    ['4,000 spaces inside a message', `a${' '.repeat(4_000)}b`, isTooLong],
    ['100,000 spaces after a comma', `a,${' '.repeat(100_000)}b`, isTooLong],
    [
      '1,900 spaces inside two phrases',
      `look up order po_1 and close ticket T-2${' '.repeat(1_900)}.`,
      (reply) => reply.kind === 'tool-calls' && reply.calls.map((c) => c.toolName).join() === 'lookupOrder,closeTicket',
    ],
    ['"call x {" and 50,000 "["', `call lookupOrder {${'['.repeat(50_000)}`, (reply) => reply.kind === 'text' && /not valid JSON/.test(reply.text)],
    [
      'a call whose JSON holds 100,000 spaces',
      `call lookupOrder {"orderId": "${' '.repeat(100_000)}x"}`,
      (reply) => reply.kind === 'tool-calls' && (reply.calls[0]!.input.orderId as string).length === 100_001,
    ],
    ['"refund order " and 10,000 digits', `refund order ${'9'.repeat(10_000)}`, isTooLong],
    ['100,000 dots inside a message', `x${'.'.repeat(100_000)}x`, isTooLong],
    [
      'a phrase and 1,980 chars of ". . ."',
      `close ticket T-7${repeatTo(' .', 1_980)}`,
      (reply) => reply.kind === 'tool-calls' && reply.calls[0]!.toolName === 'closeTicket',
    ],
    ['11 phrases and a clause that is none', `${'look up order po_1; '.repeat(11)}sing a song`, isFallback],
    ['1,990 chars of phrase words', vocabularyWords(4_000).slice(0, 1_990), isFallback],
    ['1,990 chars of "x and x and …"', repeatTo('x and ', 1_990), isFallback],
    ['1,990 chars of "; ; ; …"', repeatTo('; ', 1_990), isFallback],
    ['4,000 words of the phrase vocabulary', vocabularyWords(4_000), isTooLong],
  ];

  it.each(cases)('%s', (_name, text, expected) => {
    expect(expected(decide(text))).toBe(true);
  });

  /** What phrase matching one decision did: candidate clauses tried and their characters. */
  const workOf = (text: string) => {
    const { candidates, chars } = phraseMatchWork;
    decide(text);
    return { candidates: phraseMatchWork.candidates - candidates, chars: phraseMatchWork.chars - chars };
  };

  it(`reads a message of up to ${MAX_PHRASE_TEXT_CHARS} characters as a request, and no longer one`, () => {
    const padded = (length: number) => `close ticket T-7${' '.repeat(length - 'close ticket T-7.'.length)}.`;
    expect(decide(padded(MAX_PHRASE_TEXT_CHARS))).toEqual({ kind: 'tool-calls', calls: [{ toolName: 'closeTicket', input: { ticketId: 'T-7' } }] });
    expect(isTooLong(decide(padded(MAX_PHRASE_TEXT_CHARS + 1)))).toBe(true);
    expect(workOf(padded(MAX_PHRASE_TEXT_CHARS + 1))).toEqual({ candidates: 0, chars: 0 });
    for (const [name, text] of cases) {
      if (text.length > MAX_PHRASE_TEXT_CHARS) expect({ name, ...workOf(text) }).toEqual({ name, candidates: 0, chars: 0 });
    }
  });

  // 12 clauses at most (MAX_CLAUSES), each start tried with each end: 12 × 13 / 2 = 78 candidates.
  it('tries at most 78 candidate clauses, none longer than the message', () => {
    for (const [name, text] of cases) {
      const work = workOf(text);
      expect({ name, candidates: Math.min(work.candidates, 78), chars: Math.min(work.chars, 78 * text.length) }).toEqual({ name, ...work });
    }
    // The worst case: every clause but the last is a phrase, so every split is tried.
    expect(workOf(`${'look up order po_1; '.repeat(11)}sing a song`).candidates).toBe(78);
  });

  it('at most doubles its phrase matching when the message doubles', () => {
    const families: [string, (length: number) => string][] = [
      ['"a , a , …" (one clause)', (length) => repeatTo('a , ', length)],
      ['"x and x and …" (past 12 clauses: the whole text)', (length) => repeatTo('x and ', length)],
      ['12 lookups of longer and longer order ids', (length) => Array.from({ length: 12 }, () => `look up order ${'o'.repeat(length / 12 - 16)}`).join('; ')],
      ['phrases around a run of spaces', (length) => `look up order po_1 and close ticket T-2${' '.repeat(length - 41)}.`],
    ];
    for (const [name, family] of families) {
      const [half, full] = [workOf(family(900)).chars, workOf(family(1_800)).chars];
      expect(half, name).toBeGreaterThan(0);
      expect(full / half, name).toBeLessThanOrEqual(2.05);
    }
  });

  it('decides every one of them well within 250 ms', () => {
    // Generous on a loaded machine: each takes well under a millisecond once warm. Before the
    // fix the 4,000-space message took 7.5 s, the 100,000-dot one 8.5 s, and 100,000 spaces
    // after a comma (cubic) would have taken about a day.
    const slowest = Math.max(
      ...cases.map(([, text]) => {
        const started = performance.now();
        decide(text);
        return performance.now() - started;
      }),
    );
    expect(slowest).toBeLessThan(250);
  });
});
