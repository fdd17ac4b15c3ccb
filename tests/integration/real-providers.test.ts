// The agents on real providers, without a network: an app server (`next start`) whose openai/*
// and anthropic/* models resolve to the real @ai-sdk providers (keys set, STACKBONE_MODEL unset;
// README, "Models"), pointed at the provider test server (tests/support/provider-server.ts) that
// speaks OpenAI Chat Completions, OpenAI Responses (OPENAI_API=responses) and Anthropic Messages.
// Per format: a text turn over AG-UI and over the OpenAI- and Anthropic-compatible wires; the
// helpdesk agent's refund approved with edits, and denied; parallel calls in one step; a stop that
// closes the provider's stream; reasoning carried to the next step; a rate limit and an overload
// retried after their wait; a turn that still fails, with a reference and no provider text, and
// its Retry; a stream cut mid-way; a question (requestInput) answered. On OpenAI chat: fallback
// to an Anthropic model past the retries, a step timeout, a stop that is not one. Then a run
// killed with SIGKILL mid-reply and resumed once, on SQLite and on PostgreSQL (the rest is the
// model path, which no database changes; the shared suites run both).
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BaseEvent } from '@ag-ui/core';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachmentMessage, postRun, readThread, stopRun, TINY_PDF, TINY_PNG, uploadAttachment, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { eventually } from '../support/inspect';
import {
  offeredTools,
  openAiChatOnlyEnv,
  sentConversation,
  startProviderServer,
  type ProviderServer,
  type ScriptedReply,
  type SentEntry,
} from '../support/provider-server';
import { startServer, type TestServer } from '../support/server';
import { SUMMARY_INSTRUCTIONS, SUMMARY_REQUEST } from '../../server/models/summary-request';
import { fixtureEnv } from './global-setup';

const SUPPORT_INSTRUCTIONS =
  'You are a customer support agent. Look orders up before acting on them. Refunds and ticket closures need a human approval: ask for them with the tools, never promise them. Be brief.';

interface FormatCase {
  format: 'openai-chat' | 'openai-responses' | 'anthropic';
  /** The agent that runs on it: the helpdesk agent, or its fixture twin on Claude (tests/fixtures/agents/helpdesk-claude.ts). */
  agent: string;
  /** The model id the provider is asked for. */
  model: string;
  port: number;
  env: Record<string, string>;
  /** A call id as this provider writes them. */
  callId: (name: string) => string;
  /** More tries after a failed call: the SDK's default, or the agent's maxRetries. */
  retries: number;
}

const CASES: FormatCase[] = [
  { format: 'openai-chat', agent: 'helpdesk', model: 'gpt-4o-mini', port: 3301, env: { OPENAI_API: 'chat' }, callId: (name) => `call_${name}`, retries: 2 },
  {
    format: 'openai-responses',
    agent: 'helpdesk',
    model: 'gpt-4o-mini',
    port: 3302,
    env: { OPENAI_API: 'responses' },
    callId: (name) => `call_${name}`,
    retries: 2,
  },
  { format: 'anthropic', agent: 'helpdesk-claude', model: 'claude-sonnet-4-6', port: 3303, env: {}, callId: (name) => `toolu_${name}`, retries: 1 },
];

type AgUiEvent = BaseEvent & Record<string, unknown>;

type Part = Record<string, unknown> & { type: string };
const base64Of = (value: unknown) => String(value).replace(/^data:[^;]+;base64,/, '');

/** The files of the provider request's user messages, in its own spelling, as {kind, base64}. */
function sentFiles(format: FormatCase['format'], body: Record<string, unknown>): { kind: string; base64: string }[] {
  const entries = (format === 'openai-responses' ? body.input : body.messages) as { role?: string; content?: unknown }[];
  const parts = entries.filter((entry) => entry.role === 'user' && Array.isArray(entry.content)).flatMap((entry) => entry.content as Part[]);
  return parts.flatMap((part): { kind: string; base64: string }[] => {
    const at = <T>(key: string) => part[key] as T;
    switch (part.type) {
      case 'image_url': // OpenAI Chat Completions
        return [{ kind: 'image', base64: base64Of(at<{ url: string }>('image_url').url) }];
      case 'file':
        return [{ kind: 'pdf', base64: base64Of(at<{ file_data: string }>('file').file_data) }];
      case 'input_image': // OpenAI Responses
        return [{ kind: 'image', base64: base64Of(at<string>('image_url')) }];
      case 'input_file':
        return [{ kind: 'pdf', base64: base64Of(at<string>('file_data')) }];
      case 'image': // Anthropic Messages
        return [{ kind: 'image', base64: at<{ data: string }>('source').data }];
      case 'document':
        return [{ kind: 'pdf', base64: at<{ data: string }>('source').data }];
      default:
        return [];
    }
  });
}
const last = (events: BaseEvent[]) => events.at(-1) as AgUiEvent;
const textOf = (events: BaseEvent[]) =>
  events
    .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
    .map((event) => (event as AgUiEvent).delta)
    .join('');
const ofType = (events: BaseEvent[], type: string) => events.filter((event) => event.type === type) as AgUiEvent[];

for (const c of CASES) {
  describe(`the agents on ${c.format}`, () => {
    let provider: ProviderServer;
    let server: TestServer;

    beforeAll(async () => {
      provider = await startProviderServer();
      const ledger = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-providers-')), 'ledger.jsonl');
      server = await startServer({
        port: c.port,
        databaseUrl: await freshSqliteUrl(),
        env: {
          ...fixtureEnv(ledger),
          // Unset: the keys below choose the providers (server/models/resolve.ts).
          STACKBONE_MODEL: '',
          OPENAI_API_KEY: 'sk-test-not-real',
          ANTHROPIC_API_KEY: 'sk-ant-test-not-real',
          OPENAI_BASE_URL: provider.baseUrl,
          ANTHROPIC_BASE_URL: provider.baseUrl,
          AI_GATEWAY_API_KEY: '',
          VERCEL_OIDC_TOKEN: '',
          ...c.env,
        },
      });
    });
    afterAll(async () => {
      await server?.kill();
      await provider?.close();
      // What the server printed, for when a test fails on something only the server saw.
      await mkdir('test-results', { recursive: true });
      if (server) await writeFile(path.join('test-results', `server-${c.format}.log`), server.output());
    });
    beforeEach(() => provider.reset());
    // Every reply a test scripted was asked for: no model call went missing.
    afterEach(() => expect(provider.pending(), 'scripted replies left over').toBe(0));

    const run = (threadId: string, text: string, agent = c.agent) =>
      postRun(server.url, agent, { threadId, runId: randomUUID(), messages: [userMessage(text)] });
    const resume = (threadId: string, events: BaseEvent[], decide: (interruptId: string) => Record<string, unknown>, agent = c.agent) => {
      const finished = last(events) as AgUiEvent & { runId: string; outcome: { type: string; interrupts: { id: string }[] } };
      expect(finished.outcome.type).toBe('interrupt');
      return postRun(server.url, agent, {
        threadId,
        runId: randomUUID(),
        parentRunId: finished.runId,
        messages: [],
        resume: finished.outcome.interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: 'resolved', payload: decide(interrupt.id) })),
      });
    };
    const retry = (threadId: string, agent = c.agent) =>
      postRun(server.url, agent, { threadId, runId: randomUUID(), messages: [], forwardedProps: { retry: { retryId: randomUUID() } } });
    const refund = (amount: number): ScriptedReply => ({ toolCalls: [{ id: c.callId('refund'), name: 'refundPayment', input: { orderId: 'po_42', amount } }] });

    it('a text turn over AG-UI streams the provider’s words; the provider was sent the instructions, the message and the tools', async () => {
      provider.script({ text: 'Order po_42 was delivered on Monday.', usage: { inputTokens: 120, outputTokens: 9 } });
      const { events } = await run(randomUUID(), 'where is po_42?');
      expect(last(events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(textOf(events)).toBe('Order po_42 was delivered on Monday.');
      expect(ofType(events, 'TEXT_MESSAGE_CONTENT').length).toBeGreaterThan(1); // as it streamed, word by word

      const [request] = provider.requests;
      expect(request).toMatchObject({ format: c.format, body: { model: c.model, stream: true } });
      expect(c.format === 'anthropic' ? request!.headers['x-api-key'] : request!.headers.authorization).toMatch(/sk-(ant-)?test-not-real/);
      expect(sentConversation(request!)).toEqual([{ system: SUPPORT_INSTRUCTIONS }, { user: 'where is po_42?' }]);
      expect(offeredTools(request!)).toEqual(expect.arrayContaining(['lookupOrder', 'refundPayment', 'closeTicket']));
    });

    it('attachments reach the provider: an uploaded image and PDF go to the model as its own image and file parts, with their bytes', async () => {
      const photo = await uploadAttachment(server.url, c.agent, TINY_PNG, 'photo.png');
      const notes = await uploadAttachment(server.url, c.agent, TINY_PDF, 'notes.pdf');
      expect([photo.status, notes.status]).toEqual([201, 201]);
      provider.script({ text: 'A single pixel, and a one-page PDF.' });
      const message = attachmentMessage('What are these?', [photo.body, notes.body]);
      const { events } = await postRun(server.url, c.agent, { threadId: randomUUID(), runId: randomUUID(), messages: [message] });
      expect(textOf(events)).toBe('A single pixel, and a one-page PDF.');
      const [request] = provider.requests;
      expect(sentFiles(c.format, request!.body)).toEqual([
        { kind: 'image', base64: TINY_PNG.toString('base64') },
        { kind: 'pdf', base64: TINY_PDF.toString('base64') },
      ]);
      expect(JSON.stringify(request!.body)).toContain('What are these?');
    });

    it('a turn over the OpenAI- and Anthropic-compatible wires, with the official clients', async () => {
      provider.script({ text: 'Hello over the OpenAI wire.' }, { text: 'Hello over the Anthropic wire.' });
      const openai = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'open-dev-mode', maxRetries: 0 });
      let openAiText = '';
      for await (const chunk of await openai.chat.completions.create({ model: c.agent, messages: [{ role: 'user', content: 'hi' }], stream: true })) {
        openAiText += chunk.choices[0]?.delta.content ?? '';
      }
      expect(openAiText).toBe('Hello over the OpenAI wire.');

      const anthropic = new Anthropic({ baseURL: `${server.url}/api`, apiKey: 'open-dev-mode', maxRetries: 0 });
      const message = await anthropic.messages.stream({ model: c.agent, max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
      expect(message.content).toMatchObject([{ type: 'text', text: 'Hello over the Anthropic wire.' }]);
      expect(provider.requests.map((request) => sentConversation(request).at(-1))).toEqual([{ user: 'hi' }, { user: 'hi' }]);
    });

    it('a refund approved with edits runs on the edited arguments; the next step is sent the call and its result', async () => {
      const threadId = randomUUID();
      provider.script({ text: 'I will ask for approval.', ...refund(19.99) });
      const paused = await run(threadId, 'refund order po_42');
      const interrupt = (last(paused.events).outcome as { interrupts: Record<string, unknown>[] }).interrupts[0];
      expect(interrupt).toMatchObject({ toolCallId: c.callId('refund'), message: 'Refund $19.99 on order po_42' });

      provider.script({ text: 'Refunded $10.00 on order po_42.' });
      const { events } = await resume(threadId, paused.events, () => ({
        approved: true,
        editedArgs: { orderId: 'po_42', amount: 10 },
        payload: { note: 'partial' },
      }));
      const [result] = ofType(events, 'TOOL_CALL_RESULT');
      expect(JSON.parse(String(result!.content))).toMatchObject({ refunded: true, orderId: 'po_42', amount: 10, note: 'partial' });
      expect(textOf(events)).toBe('Refunded $10.00 on order po_42.');
      expect(last(events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

      // The model's own call as it made it, then its result: the refund as the tool made it, on the edited amount.
      const sent = sentConversation(provider.requests[1]!);
      expect(sent.slice(1, 4)).toEqual([
        { user: 'refund order po_42' },
        // The Responses API names its own earlier message item (kept by the provider, `store` on) instead of repeating it.
        c.format === 'openai-responses' ? { reference: expect.stringMatching(/^msg_/) } : { assistant: 'I will ask for approval.' },
        { call: { id: c.callId('refund'), name: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 } } },
      ]);
      const output = (sent[4] as Extract<SentEntry, { result: unknown }>).result;
      expect(output.id).toBe(c.callId('refund'));
      expect(JSON.parse(output.output)).toMatchObject({ refunded: true, amount: 10, summary: expect.stringContaining('Refunded $10.00 on order po_42') });
      expect(sent).toHaveLength(5);
    });

    it('a denied refund does not run; the next step is sent the call and the denial with its reason', async () => {
      const threadId = randomUUID();
      provider.script(refund(19.99));
      const paused = await run(threadId, 'refund order po_42');
      provider.script({ text: 'The refund was declined.' });
      const { events } = await resume(threadId, paused.events, () => ({ approved: false, reason: 'no receipt' }));
      expect(textOf(events)).toBe('The refund was declined.');
      expect(ofType(events, 'TOOL_CALL_RESULT')[0]!.content).toContain('no receipt');
      expect(sentConversation(provider.requests[1]!).slice(2)).toEqual([
        { call: { id: c.callId('refund'), name: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 } } },
        {
          result: expect.objectContaining({
            id: c.callId('refund'),
            output: expect.stringContaining('The user denied this call; it did not run. Reason: no receipt'),
          }),
        },
      ]);
    });

    it('parallel calls in one step all run; the next step is sent both calls, then both results', async () => {
      provider.script(
        {
          toolCalls: [
            { id: c.callId('a'), name: 'lookupOrder', input: { orderId: 'po_42' } },
            { id: c.callId('b'), name: 'lookupOrder', input: { orderId: 'po_7' } },
          ],
        },
        { text: 'Both found.' },
      );
      const { events } = await run(randomUUID(), 'look up po_42 and po_7');
      expect(ofType(events, 'TOOL_CALL_START').map((event) => event.toolCallId)).toEqual([c.callId('a'), c.callId('b')]);
      expect(ofType(events, 'TOOL_CALL_RESULT')).toHaveLength(2);
      expect(textOf(events)).toBe('Both found.');
      const sent = sentConversation(provider.requests[1]!);
      expect(sent.slice(2).map((entry) => ('call' in entry ? `call ${entry.call.id}` : 'result' in entry ? `result ${entry.result.id}` : 'other'))).toEqual([
        `call ${c.callId('a')}`,
        `call ${c.callId('b')}`,
        `result ${c.callId('a')}`,
        `result ${c.callId('b')}`,
      ]);
      expect(sent[4]).toMatchObject({ result: { output: expect.stringContaining('Analytical Engine manual') } });
      expect(sent[5]).toMatchObject({ result: { output: expect.stringContaining('Compiler stickers') } });
    });

    it('a stop mid-stream ends the run as cancelled and closes the provider’s stream', async () => {
      const threadId = randomUUID();
      provider.script({ text: 'one two three four five six seven eight nine ten', stallAfter: 6 });
      const running = run(threadId, 'count slowly');
      const request = await provider.request(0);
      // Until the words that came have reached the thread, then the stop.
      for (let tries = 0; tries < 100 && (await readThread(server.url, c.agent, threadId)).body.status !== 'running'; tries++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await stopRun(server.url, c.agent, { threadId })).body).toMatchObject({ stopped: true });
      const { events } = await running;
      expect(last(events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
      expect(textOf(events)).toMatch(/^one two/);
      expect(await request.ended).toBe('client-closed');
    });

    it('a 429 is tried again after its retry-after; the turn goes on', async () => {
      provider.script({ status: 429, retryAfter: '1', message: 'Rate limit reached for requests' }, { text: 'Here after the wait.' });
      const { events } = await run(randomUUID(), 'hello');
      expect(textOf(events)).toBe('Here after the wait.');
      const [first, second] = provider.requests;
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    });

    it('a turn that still fails ends with model_error, a reference and retryable, never the provider’s text; Retry then answers', async () => {
      const threadId = randomUUID();
      const failure = { status: 500, retryAfter: '0', message: 'upstream exploded at host-internal-7' };
      provider.script(...Array.from({ length: c.retries + 1 }, () => failure));
      const failed = await run(threadId, 'hello');
      expect(provider.requests).toHaveLength(c.retries + 1); // the first try and the agent's retries
      const error = last(failed.events) as AgUiEvent & { message: string; metadata: { reference: string; retryable: boolean } };
      expect(error).toMatchObject({ type: 'RUN_ERROR', code: 'model_error', metadata: { reference: expect.stringMatching(/^[0-9a-f]{8}$/), retryable: true } });
      expect(error.message).toContain('HTTP 500');
      expect(error.message).toContain(error.metadata.reference);
      expect(JSON.stringify(failed.events)).not.toContain('host-internal-7');
      expect(server.output()).toContain(`ref ${error.metadata.reference}`); // the details are in the server's log

      provider.script({ text: 'Hello again.' });
      const retried = await retry(threadId);
      expect(last(retried.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(textOf(retried.events)).toBe('Hello again.');
      expect(sentConversation(provider.requests.at(-1)!).slice(1)).toEqual([{ user: 'hello' }]);
    });

    it('a request the provider refuses (401) is not tried again, and says a Retry would not help', async () => {
      provider.script({ status: 401, message: 'Incorrect API key provided: sk-test-****real' });
      const { events } = await run(randomUUID(), 'hello');
      expect(provider.requests).toHaveLength(1);
      expect(last(events)).toMatchObject({ type: 'RUN_ERROR', code: 'model_error', metadata: { retryable: false } });
      expect(JSON.stringify(events)).not.toContain('Incorrect API key');
    });

    it('a stream cut mid-way fails the turn (retryable, what came is not kept); Retry answers in full', async () => {
      const threadId = randomUUID();
      provider.script({ text: 'alpha beta gamma delta epsilon zeta eta theta', cutAfter: 6 });
      const failed = await run(threadId, 'hello');
      expect(await provider.requests[0]!.ended).toBe('cut');
      expect(last(failed.events)).toMatchObject({ type: 'RUN_ERROR', code: 'model_error', metadata: { retryable: true } });
      expect(textOf(failed.events)).toMatch(/^alpha beta/);

      provider.script({ text: 'alpha beta gamma delta epsilon zeta eta theta' });
      const retried = await retry(threadId);
      expect(textOf(retried.events)).toBe('alpha beta gamma delta epsilon zeta eta theta');
      expect(sentConversation(provider.requests[1]!).slice(1)).toEqual([{ user: 'hello' }]); // the cut words are not sent back
      const thread = (await readThread(server.url, c.agent, threadId)).body as { messages: { role: string; parts: { type: string; content?: string }[] }[] };
      expect(thread.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    });

    // docs/models.md, "Long threads": support-compact is the helpdesk agent with a 200-token budget.
    if (c.format !== 'anthropic') {
      it('a thread past its context budget is sent a summary of its older turns; the log keeps them and the hydration names the compaction', async () => {
        const threadId = randomUUID();
        const turn = (text: string) => postRun(server.url, 'helpdesk-compact', { threadId, runId: randomUUID(), messages: [userMessage(text)] });
        provider.script({ text: 'Order po_42 was delivered on Monday.', usage: { inputTokens: 120, outputTokens: 9 } });
        await turn('where is po_42?');
        // 120 reported + the reply and the new message estimated (characters / 4): under 200, sent whole.
        provider.script({ text: 'Order po_43 is on its way.', usage: { inputTokens: 260, outputTokens: 8 } });
        const second = await turn('and po_43?');
        const secondReplyId = ofType(second.events, 'TEXT_MESSAGE_START')[0]!.messageId;
        expect(sentConversation(provider.requests[1]!).filter((entry) => 'user' in entry)).toEqual([{ user: 'where is po_42?' }, { user: 'and po_43?' }]);

        const summary = 'The user asked where po_42 and po_43 are: po_42 was delivered on Monday, po_43 is on its way.';
        provider.script({ text: summary, usage: { inputTokens: 90, outputTokens: 24 } }, { text: 'You are welcome.' });
        const { events } = await turn('thanks');
        expect(textOf(events)).toBe('You are welcome.');

        // The summary call: the agent's model, no tools, the older turns as a transcript.
        const summaryCall = provider.requests[2]!;
        expect(offeredTools(summaryCall)).toEqual([]);
        expect(sentConversation(summaryCall)).toEqual([
          { system: SUMMARY_INSTRUCTIONS },
          {
            user: `${SUMMARY_REQUEST}\n\nUser: where is po_42?\nAssistant: Order po_42 was delivered on Monday.\nUser: and po_43?\nAssistant: Order po_43 is on its way.`,
          },
        ]);
        // The step: the instructions, the summary in place of the older turns, the new message.
        expect(sentConversation(provider.requests[3]!)).toEqual([
          { system: SUPPORT_INSTRUCTIONS },
          { system: expect.stringMatching(new RegExp(`summarised[\\s\\S]*${summary}$`)) },
          { user: 'thanks' },
        ]);
        expect(ofType(events, 'CUSTOM').find((event) => event.name === 'stackbone.context_compacted')).toMatchObject({
          value: { method: 'summary', summary, tokensBefore: 268 },
        });

        // The log keeps every message; the hydration says where the summary stands.
        const thread = (await readThread(server.url, 'helpdesk-compact', threadId)).body as {
          messages: { role: string }[];
          compactions: { throughMessageId: string; method: string; summary: string }[];
          usage: { thread: { inputTokens?: number }[] };
        };
        expect(thread.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
        expect(thread.compactions).toEqual([expect.objectContaining({ method: 'summary', summary, throughMessageId: secondReplyId })]);
        expect(thread.usage.thread[0]!.inputTokens).toBeGreaterThanOrEqual(120 + 260 + 90); // the summary call counts
      });
    }

    if (c.format !== 'anthropic') {
      // The planner's ask_user (examples/demo/agents/taskboard.ts) asks with requestInput: the run waits for the person.
      it('a question: the model asks, the run waits for the person, and the answer reaches the tool and the next step', async () => {
        const threadId = randomUUID();
        provider.script({ toolCalls: [{ id: c.callId('ask'), name: 'ask_user', input: { question: 'Which colour should the launch be?' } }] });
        const paused = await run(threadId, 'ask me which colour', 'taskboard');
        const interrupt = (last(paused.events).outcome as { interrupts: Record<string, unknown>[] }).interrupts[0];
        expect(interrupt).toMatchObject({ reason: 'input_required', message: 'Which colour should the launch be?' });

        provider.script({ text: 'Blue it is.' });
        const { events } = await resume(threadId, paused.events, () => ({ answer: 'Blue' }), 'taskboard');
        expect(textOf(events)).toBe('Blue it is.');
        expect(last(events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
        const sent = sentConversation(provider.requests[1]!);
        expect(sent.at(-1)).toEqual({
          result: expect.objectContaining({
            id: c.callId('ask'),
            output: expect.stringContaining('You answered “Blue” to “Which colour should the launch be?”'),
          }),
        });
      });
    }

    if (c.format === 'openai-chat') {
      // docs/models.md, "Choosing a model": the helpdesk agent offers GPT-4o mini and Claude; a
      // thread that chose Claude is served by Anthropic's API, on AG-UI and on the chat wires.
      it('a turn on the model the client chose goes to that provider, as that model; /api/v1/models says who serves each', async () => {
        provider.script({ text: 'Claude here.' }, { text: 'Claude again.' });
        const threadId = randomUUID();
        const chosen = await postRun(server.url, 'helpdesk', {
          threadId,
          runId: randomUUID(),
          messages: [userMessage('hello')],
          forwardedProps: { model: 'anthropic/claude-sonnet-4-6' },
        });
        expect(textOf(chosen.events)).toBe('Claude here.');
        const openai = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'open-dev-mode', maxRetries: 0 });
        const completion = await openai.chat.completions.create(
          { model: 'helpdesk', messages: [{ role: 'user', content: 'hi' }] },
          { headers: { 'x-stackbone-model': 'anthropic/claude-sonnet-4-6' } },
        );
        expect(completion.choices[0]!.message.content).toBe('Claude again.');
        expect(provider.requests.map((request) => [request.format, (request.body as { model: string }).model])).toEqual([
          ['anthropic', 'claude-sonnet-4-6'],
          ['anthropic', 'claude-sonnet-4-6'],
        ]);
        const support = (await openai.models.retrieve('helpdesk')) as unknown as { models: { id: string; backend: string }[] };
        expect(support.models.map(({ id, backend }) => [id, backend])).toEqual([
          ['openai/gpt-4o-mini', 'openai'],
          ['anthropic/claude-sonnet-4-6', 'anthropic'],
        ]);
      });

      // The helpdesk agent on gpt-4o-mini falling back to Claude, with a 1.5 s step timeout (tests/fixtures/agents/helpdesk-fallback.ts).
      const FALLBACK = 'helpdesk-fallback';

      it('a model failing past its retries (500s) falls back to the Anthropic model, which answers and is named in the usage', async () => {
        const failure = { status: 500, retryAfter: '0', message: 'upstream exploded at host-internal-7' };
        provider.script(failure, failure, { text: 'Claude answering for GPT.', usage: { inputTokens: 40, outputTokens: 5 } });
        const { events } = await run(randomUUID(), 'hello', FALLBACK);
        expect(provider.requests.map((request) => request.format)).toEqual(['openai-chat', 'openai-chat', 'anthropic']);
        expect(provider.requests[2]!.body.model).toBe('claude-sonnet-4-6');
        expect(sentConversation(provider.requests[2]!)).toEqual(sentConversation(provider.requests[0]!));
        expect(textOf(events)).toBe('Claude answering for GPT.');
        expect(last(events)).toMatchObject({
          type: 'RUN_FINISHED',
          outcome: { type: 'success' },
          usage: [{ provider: 'anthropic', model: 'claude-sonnet-4-6', inputTokens: 40, outputTokens: 5 }],
        });
        expect(JSON.stringify(events)).not.toContain('host-internal-7');
      });

      it('a reply cut after words streamed is not handed to the fallback: nothing is said twice', async () => {
        provider.script({ text: 'alpha beta gamma delta epsilon', cutAfter: 4 });
        const { events } = await run(randomUUID(), 'hello', FALLBACK);
        expect(provider.requests).toHaveLength(1);
        expect(last(events)).toMatchObject({ type: 'RUN_ERROR', code: 'model_error', metadata: { retryable: true } });
      });

      it('providers that stall past the step timeout end the turn with a retryable model_error, kept for a reload; Retry answers', async () => {
        const threadId = randomUUID();
        provider.script({ text: 'never said', stallAfter: 0 }, { text: 'nor this', stallAfter: 0 });
        const started = Date.now();
        const failed = await run(threadId, 'hello', FALLBACK);
        // Each model had its 1.5 s, and each call was aborted.
        expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
        expect(provider.requests.map((request) => request.format)).toEqual(['openai-chat', 'anthropic']);
        expect(await Promise.all(provider.requests.map((request) => request.ended))).toEqual(['client-closed', 'client-closed']);
        const error = last(failed.events) as AgUiEvent & { message: string; metadata: { reference: string; retryable: boolean } };
        expect(error).toMatchObject({
          type: 'RUN_ERROR',
          code: 'model_error',
          message: expect.stringContaining('timed out after 1.5 s'),
          metadata: { retryable: true },
        });
        // The hydration JSON has the failure's details, so a reloaded chat knows a Retry may go through.
        expect((await readThread(server.url, FALLBACK, threadId)).body.error).toEqual({
          code: 'model_error',
          message: error.message,
          details: { reference: error.metadata.reference, retryable: true },
        });

        provider.script({ text: 'In time now.' });
        expect(textOf((await retry(threadId, FALLBACK)).events)).toBe('In time now.');
      });

      it('a stop while the provider stalls is still a stop: cancelled, and no fallback is asked', async () => {
        const threadId = randomUUID();
        provider.script({ text: 'never said', stallAfter: 0 });
        const running = run(threadId, 'hello', FALLBACK);
        await provider.request(0);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect((await stopRun(server.url, FALLBACK, { threadId })).body).toMatchObject({ stopped: true });
        expect(last((await running).events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
        await new Promise((resolve) => setTimeout(resolve, 1_600)); // past the step timeout: no timeout fires late
        expect(provider.requests).toHaveLength(1);
      });
    }

    if (c.format === 'anthropic') {
      it('a 529 overloaded is tried again after the SDK’s wait; past the agent’s maxRetries (1) the turn fails', async () => {
        provider.script({ status: 529, message: 'Overloaded' }, { text: 'Back.' });
        expect(textOf((await run(randomUUID(), 'hello')).events)).toBe('Back.');
        expect(provider.requests[1]!.at - provider.requests[0]!.at).toBeGreaterThanOrEqual(1_900); // no retry-after: 2 s, the first backoff

        provider.reset();
        provider.script({ status: 529, message: 'Overloaded' }, { status: 529, message: 'Overloaded' });
        const { events } = await run(randomUUID(), 'hello');
        expect(provider.requests).toHaveLength(2);
        expect(last(events)).toMatchObject({
          type: 'RUN_ERROR',
          code: 'model_error',
          message: expect.stringContaining('HTTP 529'),
          metadata: { retryable: true },
        });
      });
    }

    if (c.format !== 'openai-chat') {
      // Anthropic's thinking (with its signature) and a Responses reasoning item (encrypted_content,
      // and its id): what the model reasoned before a tool call belongs in the next step's request.
      const reasoningStep = (): ScriptedReply => ({
        reasoning: { text: 'The customer wants po_42 checked first.', signature: 'sig-EqQB-ord42', itemId: 'rs_ord42', encryptedContent: 'gAAAA-ord42' },
        toolCalls: [{ id: c.callId('r'), name: 'lookupOrder', input: { orderId: 'po_42' } }],
      });

      it('a step that reasoned before its call runs; the next step is sent the call and its result', async () => {
        provider.script(reasoningStep(), { text: 'It was delivered.' });
        const { events } = await run(randomUUID(), 'is po_42 delivered?');
        expect(textOf(events)).toBe('It was delivered.');
        const sent = sentConversation(provider.requests[1]!);
        expect(sent.filter((entry) => 'call' in entry || 'result' in entry)).toEqual([
          { call: { id: c.callId('r'), name: 'lookupOrder', input: { orderId: 'po_42' } } },
          { result: expect.objectContaining({ id: c.callId('r') }) },
        ]);
      });

      // The step keeps its reasoning parts with their providerMetadata, and the next request carries
      // them back (docs/internals/architecture.md, "Reasoning and provider metadata"): Anthropic's thinking
      // block with its signature, the Responses reasoning item (by item_reference, as store is on by
      // default, or with its encrypted_content).
      it('the next step is sent the reasoning back: the thinking with its signature, the reasoning item', async () => {
        provider.script(reasoningStep(), { text: 'It was delivered.' });
        await run(randomUUID(), 'is po_42 delivered?');
        const reasoning = sentConversation(provider.requests[1]!).filter((entry) => 'reasoning' in entry || 'reference' in entry);
        expect(reasoning).toEqual([
          c.format === 'anthropic'
            ? { reasoning: expect.objectContaining({ type: 'thinking', thinking: 'The customer wants po_42 checked first.', signature: 'sig-EqQB-ord42' }) }
            : { reference: 'rs_ord42' },
        ]);
      });
    }

    if (c.format === 'openai-responses') {
      // The pages a reply cites (url_citation annotations) are kept with its step and shown under it:
      // an activity message of its own, live and in every later snapshot (the chat's first paint too).
      it('the pages a reply cites reach AG-UI clients as its sources, live and in the thread’s snapshot', async () => {
        const cited = { url: 'https://docs.ag-ui.com/concepts/events', title: 'AG-UI events' };
        provider.script({ text: 'AG-UI streams typed events over SSE.', citations: [cited] }, { text: 'You are welcome.' });
        const threadId = randomUUID();
        const { events } = await run(threadId, 'how does AG-UI stream?');
        const replyId = ofType(events, 'TEXT_MESSAGE_START')[0]!.messageId;
        const sources = ofType(events, 'ACTIVITY_SNAPSHOT').filter((event) => event.activityType === 'stackbone.sources');
        expect(sources).toEqual([expect.objectContaining({ messageId: `sources:${replyId}`, content: { messageId: replyId, sources: [cited] } })]);

        const next = await run(threadId, 'thanks');
        const snapshot = ofType(next.events, 'MESSAGES_SNAPSHOT')[0]!.messages as { id: string; role: string; content?: unknown }[];
        const at = snapshot.findIndex((message) => message.id === replyId);
        expect(snapshot[at + 1]).toMatchObject({ role: 'activity', activityType: 'stackbone.sources', content: { messageId: replyId, sources: [cited] } });
      });
    }
  });
}

// Recovery after a hard crash with a real provider (docs/internals/architecture.md, "Crash points"): the
// server is killed with SIGKILL while the provider is mid-reply; a server started on the same
// database takes the run up when its lease runs out and asks the provider once more, once. On
// PostgreSQL when one answers (so the core flow, a text turn first, runs there too), else on
// SQLite: two server starts are the cost, paid once; the crash matrix runs both databases.
describe('recovery after SIGKILL mid-reply, on the real providers', () => {
  it('a text turn, then a run killed mid-reply is resumed exactly once by the restarted server', { timeout: 180_000 }, async () => {
    const kind = (await postgresReachable()) ? 'postgres' : 'sqlite';
    const provider = await startProviderServer();
    const ledger = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-providers-')), 'ledger.jsonl');
    const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_providers');
    const options = {
      port: 3304,
      databaseUrl,
      env: {
        ...fixtureEnv(ledger),
        ...openAiChatOnlyEnv(provider.baseUrl),
      },
    };
    let server = await startServer(options);
    try {
      provider.script({ text: 'Order po_42 was delivered.' });
      const first = await postRun(server.url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('where is po_42?')] });
      expect(textOf(first.events)).toBe('Order po_42 was delivered.');

      const threadId = randomUUID();
      provider.script({ text: 'one two three four five six seven eight', stallAfter: 5 });
      const dying = postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('count for me')] }).catch(() => null);
      await provider.request(1);
      await eventually(async () => (await readThread(server.url, 'helpdesk', threadId)).body.status === 'running', 10_000, 'the run to be going');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await server.kill('SIGKILL');
      await dying;

      provider.script({ text: 'one two three four five six seven eight' });
      server = await startServer(options);
      const thread = await eventually(
        async () => {
          const { body } = await readThread(server.url, 'helpdesk', threadId);
          return body.status === 'idle' && body;
        },
        20_000,
        'the restarted server to finish the turn',
      );
      expect(provider.requests).toHaveLength(3);
      expect(sentConversation(provider.requests[2]!).slice(1)).toEqual([{ user: 'count for me' }]);
      const messages = (thread as { messages: { role: string; parts: { type: string; content?: string }[] }[] }).messages;
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(messages[1]!.parts.filter((part) => part.type === 'text').map((part) => part.content)).toEqual(['one two three four five six seven eight']);
      // Exactly once: no second pick-up asks the provider again.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(provider.requests).toHaveLength(3);
      expect(provider.pending()).toBe(0);
    } finally {
      await server.kill();
      await provider.close();
    }
  });
});
