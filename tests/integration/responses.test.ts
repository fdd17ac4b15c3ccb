// The OpenAI Responses-compatible wire (docs/internals/wires.md, "The Responses wire") driven by the
// official `openai` package, against real servers on SQLite and PostgreSQL: text, a client
// function tool, approvals in OpenAI's own form (exactly once with Studio's path), a question,
// a background run joined mid-way from a sequence number, a cancel, and OpenAI's errors.
import { randomUUID } from 'node:crypto';
import { Agent, hostedMcpTool, OpenAIResponsesModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI, { BadRequestError, ConflictError, NotFoundError } from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readLedger } from '../fixtures/agents/ledger';
import { backends } from '../support/backends';
import { eventually, readSessionEvents } from '../support/inspect';
import { rejection } from '../support/sdk';

const tokens = (n: number) => Array.from({ length: n }, (_, i) => `token${i + 1}`).join(' ');
const textOf = (events: ResponseStreamEvent[]) => events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : [])).join('');
const numbers = (events: ResponseStreamEvent[]) => events.map((event) => event.sequence_number);
const consecutive = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
/** The session key a response id carries (docs/internals/wires.md, "The Responses wire"). */
const sessionKeyOf = (id: string) => Buffer.from(id.slice('resp_'.length, id.indexOf('.')), 'base64url').toString();

function client(url: string) {
  return new OpenAI({ baseURL: `${url}/api/v1`, apiKey: 'dev-mode-needs-no-key' });
}

for (const server of backends()) {
  describe(`Responses wire on ${server.kind}`, () => {
    const openai = client(server.url);
    const effects = (key: string) => readLedger(server.ledgerFile).filter((line) => line.kind === 'effect' && line.key === key);

    it('answers text whole and streamed, each event numbered; previous_response_id continues the session', async () => {
      const first = await openai.responses.create({ model: 'helpdesk', input: 'say 5 words' });
      expect(first).toMatchObject({ object: 'response', status: 'completed', model: 'helpdesk', previous_response_id: null });
      expect(first.id).toMatch(/^resp_/);
      expect(first.output_text).toBe(tokens(5));
      expect(first.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });

      const stream = await openai.responses.create({ model: 'helpdesk', input: 'say 3 words', previous_response_id: first.id, stream: true });
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      expect(numbers(events)).toEqual(consecutive(0, events.length));
      expect(events.map((event) => event.type)).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(textOf(events)).toBe(tokens(3));
      const completed = events.at(-1) as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
      expect(completed.response.previous_response_id).toBe(first.id);

      // The SDK's own accumulator agrees, and the session holds both turns.
      const helper = openai.responses.stream({ model: 'helpdesk', input: 'say 2 words', previous_response_id: completed.response.id });
      const final = await helper.finalResponse();
      expect(final.output_text).toBe(tokens(2));
      const items = await openai.responses.inputItems.list(final.id, { order: 'asc' });
      expect(items.data).toEqual([expect.objectContaining({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'say 2 words' }] })]);
      const { data: raw, response } = await openai.responses.retrieve(final.id).withResponse();
      expect(raw).toMatchObject({ id: final.id, status: 'completed', output_text: tokens(2) });
      const session = await (await fetch(`${server.url}/api/v1/sessions/${response.headers.get('x-stackbone-session')}`)).json();
      expect(session.messages.filter((message: { role: string }) => message.role === 'user').map((message: { content: string }) => message.content)).toEqual([
        'say 5 words',
        'say 3 words',
        'say 2 words',
      ]);
    });

    it('a client function tool: a function_call item answered by a function_call_output', async () => {
      const tools = [
        {
          type: 'function' as const,
          name: 'showDialog',
          description: 'Shows a dialog.',
          strict: false,
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      ];
      const first = await openai.responses.create({ model: 'helpdesk', input: 'call showDialog {"text":"Ship it?"}', tools });
      expect(first.status).toBe('completed');
      const call = first.output.find((item) => item.type === 'function_call')!;
      expect(call).toMatchObject({ type: 'function_call', name: 'showDialog', call_id: expect.any(String) });
      if (call.type !== 'function_call') throw new Error('expected a function call');
      expect(JSON.parse(call.arguments)).toEqual({ text: 'Ship it?' });
      const second = await openai.responses.create({
        model: 'helpdesk',
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'the user clicked yes' }],
        tools,
      });
      expect(second.output_text).toBe('The user clicked yes.');
    });

    it('approvals in OpenAI form: approved runs once, a second answer and one after Studio decided are refused; rejected with a reason tells the model', async () => {
      const key = `responses-${randomUUID()}`;
      const paused = await openai.responses.create({ model: 'ledger', input: `call recordEffect {"key":"${key}"}` });
      expect(paused.status).toBe('completed');
      const request = paused.output.find((item) => item.type === 'mcp_approval_request')!;
      expect(request).toMatchObject({ type: 'mcp_approval_request', name: 'recordEffect', server_label: 'ledger', id: expect.stringMatching(/^int_/) });
      if (request.type !== 'mcp_approval_request') throw new Error('expected an approval request');
      expect(JSON.parse(request.arguments)).toMatchObject({ key });
      // The same interrupt is in the inbox Studio and the CLI read.
      const inbox = (await (await fetch(`${server.url}/api/hitl`)).json()) as { interrupts: { id: string }[] };
      expect(inbox.interrupts.map((interrupt) => interrupt.id)).toContain(request.id);

      const answer = [{ type: 'mcp_approval_response' as const, approval_request_id: request.id, approve: true }];
      const { data: approved, response: raw } = await openai.responses
        .create({ model: 'ledger', previous_response_id: paused.id, input: answer })
        .withResponse();
      expect(approved.output_text).toBe(`Record effect — recorded: ${key}; attempt: 1.`);
      // The audit trail says where the decision was made.
      const log = await readSessionEvents(server.databaseUrl, raw.headers.get('x-stackbone-session')!);
      expect(log.filter((event) => event.type === 'interrupt_decided').map((event) => event.decision.by?.source)).toEqual(['responses']);
      const again = await rejection(openai.responses.create({ model: 'ledger', previous_response_id: paused.id, input: answer }), ConflictError);
      expect(again.code).toBe('interrupt_already_decided');
      expect(effects(key)).toHaveLength(1);

      // Studio (the HTTP inbox) decides first; the client's answer afterwards is refused, and nothing runs twice.
      const studioKey = `${key}-studio`;
      const second = await openai.responses.create({ model: 'ledger', previous_response_id: approved.id, input: `call recordEffect {"key":"${studioKey}"}` });
      const studioRequest = second.output.find((item) => item.type === 'mcp_approval_request')!;
      const decided = await fetch(`${server.url}/api/hitl/${studioRequest.id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(decided.status).toBe(200);
      const late = await rejection(
        openai.responses.create({
          model: 'ledger',
          previous_response_id: second.id,
          input: [{ type: 'mcp_approval_response', approval_request_id: studioRequest.id, approve: false }],
        }),
        ConflictError,
      );
      expect(late.code).toBe('interrupt_already_decided');
      await eventually(async () => effects(studioKey).length === 1, 15_000, 'the Studio-approved effect');

      const rejectKey = `${key}-rejected`;
      const third = await openai.responses.create({ model: 'ledger', input: `call recordEffect {"key":"${rejectKey}"}` });
      const thirdRequest = third.output.find((item) => item.type === 'mcp_approval_request')!;
      const rejected = await openai.responses.create({
        model: 'ledger',
        previous_response_id: third.id,
        input: [{ type: 'mcp_approval_response', approval_request_id: thirdRequest.id, approve: false, reason: 'not today' }],
      });
      expect(rejected.output_text).toBe("I didn't record effect: you declined it (“not today”).");
      expect(effects(rejectKey)).toHaveLength(0);
      const items = await openai.responses.inputItems.list(rejected.id);
      expect(items.data).toEqual([
        expect.objectContaining({ type: 'mcp_approval_response', approval_request_id: thirdRequest.id, approve: false, reason: 'not today' }),
      ]);
    });

    it('a question (requestInput) is a request_input function call; its function_call_output is the answer', async () => {
      const asked = await openai.responses.create({ model: 'taskboard', input: 'ask me for a launch name' });
      const question = asked.output.find((item) => item.type === 'function_call')!;
      if (question.type !== 'function_call') throw new Error('expected a function call');
      expect(question.name).toBe('request_input');
      expect(JSON.parse(question.arguments)).toMatchObject({ message: expect.any(String), tool: 'ask_user', response_schema: { type: 'object' } });
      const answered = await openai.responses.create({
        model: 'taskboard',
        previous_response_id: asked.id,
        input: [{ type: 'function_call_output', call_id: question.call_id, output: JSON.stringify({ answer: 'Liftoff' }) }],
      });
      expect(answered.status).toBe('completed');
      expect(answered.output_text).toContain('Liftoff');
    });

    it('background: joined mid-way from a sequence number after the client dropped, with no gap and no duplicate; the replay is the same stream', async () => {
      const stream = await openai.responses.create({ model: 'helpdesk', input: 'slowly reply with 30 tokens', background: true, stream: true });
      const head: ResponseStreamEvent[] = [];
      for await (const event of stream) {
        head.push(event);
        if (head.filter((entry) => entry.type === 'response.output_text.delta').length === 6) break;
      }
      const id = (head[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>).response.id;
      const last = head.at(-1)!.sequence_number;
      const polled = await openai.responses.retrieve(id);
      expect(polled.status).toBe('in_progress');

      const tail: ResponseStreamEvent[] = [];
      for await (const event of await openai.responses.retrieve(id, { stream: true, starting_after: last })) tail.push(event);
      expect(numbers([...head, ...tail])).toEqual(consecutive(0, head.length + tail.length));
      expect(textOf([...head, ...tail])).toBe(tokens(30));
      expect(tail.at(-1)!.type).toBe('response.completed');

      const replay: ResponseStreamEvent[] = [];
      for await (const event of await openai.responses.retrieve(id, { stream: true })) replay.push(event);
      expect(replay).toEqual([...head, ...tail]);
      expect((await openai.responses.retrieve(id)).output_text).toBe(tokens(30));
    });

    it('cancel is the persisted stop: the background response ends cancelled; one queued behind it leaves the queue', async () => {
      const started = await openai.responses.create({ model: 'helpdesk', input: 'slowly reply with 200 tokens', background: true });
      expect(started).toMatchObject({ status: 'in_progress', background: true });
      const behind = await openai.responses.create({ model: 'helpdesk', input: 'say 2 words', previous_response_id: started.id, background: true });
      expect(behind.status).toBe('queued');
      expect((await openai.responses.retrieve(behind.id)).status).toBe('queued');
      expect(await openai.responses.cancel(behind.id)).toMatchObject({ id: behind.id, status: 'cancelled' });

      const cancelled = await openai.responses.cancel(started.id);
      expect(cancelled).toMatchObject({ id: started.id, status: 'cancelled' });
      expect((await openai.responses.retrieve(started.id)).status).toBe('cancelled');
      // The queued message never ran: the session is idle after the cancelled turn, with one user message.
      const session = await (await fetch(`${server.url}/api/v1/sessions/${sessionKeyOf(started.id)}`)).json();
      expect(session.status).toBe('idle');
      expect(session.messages.filter((message: { role: string }) => message.role === 'user')).toHaveLength(1);
    });

    it("errors are OpenAI's: an unknown model, response or cursor, and instructions the agent owns", async () => {
      const model = await rejection(openai.responses.create({ model: 'nobody', input: 'hi' }), NotFoundError);
      expect(model.code).toBe('model_not_found');
      const missing = await rejection(openai.responses.create({ model: 'helpdesk', input: 'hi', previous_response_id: 'resp_nope' }), NotFoundError);
      expect(missing).toMatchObject({ code: 'response_not_found', param: 'previous_response_id', type: 'invalid_request_error' });
      const foreign = `resp_${Buffer.from(randomUUID()).toString('base64url')}.${randomUUID()}`;
      expect((await rejection(openai.responses.retrieve(foreign), NotFoundError)).code).toBe('response_not_found');
      const instructions = await rejection(openai.responses.create({ model: 'helpdesk', input: 'hi', instructions: 'Be terse.' }), BadRequestError);
      expect(instructions.param).toBe('instructions');
    });

    it('store: false is stateless: a refund the agent keeps for a person does not run, and nothing can be retrieved', async () => {
      const { data, response } = await openai.responses.create({ model: 'helpdesk', input: 'refund order po_42 for 19.99', store: false }).withResponse();
      expect(data.output_text).toMatch(/^I couldn't refund payment: refundPayment needs .*a stateless request cannot wait for one\. Send previous_response_id/);
      expect(response.headers.get('x-stackbone-session')).toBeNull();
      expect((await rejection(openai.responses.retrieve(data.id), NotFoundError)).code).toBe('response_not_found');
    });

    it('OpenAI Agents JS uses the wire as its model: text, its function tools, and its approval interruptions', async () => {
      setTracingDisabled(true);
      const model = (agent: string) => new OpenAIResponsesModel(openai, agent);
      const text = await run(new Agent({ name: 'text', model: model('helpdesk') }), 'say 3 words');
      expect(text.finalOutput).toBe(tokens(3));

      const showDialog = tool({
        name: 'showDialog',
        description: 'Shows a dialog.',
        parameters: z.object({ text: z.string() }),
        execute: async () => 'the user clicked yes',
      });
      const tooled = await run(new Agent({ name: 'tools', model: model('helpdesk'), tools: [showDialog] }), 'call showDialog {"text":"Ship it?"}');
      expect(tooled.finalOutput).toBe('The user clicked yes.');

      // The agent's gated tools, declared as a hosted MCP server named after the agent: our approval requests become its interruptions.
      const key = `agents-js-${randomUUID()}`;
      const gated = new Agent({
        name: 'gated',
        model: model('ledger'),
        tools: [hostedMcpTool({ serverLabel: 'ledger', serverUrl: 'https://unused.invalid', requireApproval: 'always' })],
      });
      const paused = await run(gated, `call recordEffect {"key":"${key}"}`);
      expect(paused.interruptions).toHaveLength(1);
      for (const interruption of paused.interruptions) paused.state.approve(interruption);
      const approved = await run(gated, paused.state);
      expect(approved.finalOutput).toBe(`Record effect — recorded: ${key}; attempt: 1.`);
      expect(effects(key)).toHaveLength(1);
    });
  });
}
