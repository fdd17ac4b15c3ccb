// A small AG-UI server with one gated tool, for the conformance kit's tests
// (tests/integration/conformance.test.ts, docs/conformance.md). Without a flaw it keeps AG-UI's
// interrupt lifecycle the way a server other than Stackbone might: every message calls
// `payInvoice`, which pauses the run with an interrupt; a run with no new message reopens the
// thread (MESSAGES_SNAPSHOT, then the pending interrupt again); a resume runs or rejects the
// call; refusals are RUN_ERROR events. Each flaw breaks one rule:
// - `runs-tool-unasked`: the tool runs at once, the run ends with a success outcome;
// - `forgets-interrupt-on-reconnect`: a reopened thread shows its messages but no interrupt;
// - `hangs`: the run starts and never ends.
// Events are @ag-ui/core's, written by @ag-ui/encoder, over node:http.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventType, type BaseEvent, type Interrupt, type Message, type RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';

export type AgUiFlaw = 'runs-tool-unasked' | 'forgets-interrupt-on-reconnect' | 'hangs';

interface Thread {
  messages: Message[];
  pending: Interrupt[];
  /** Interrupts decided already: a resume naming one again is answered, not run again. */
  decided: Set<string>;
}

export interface BrokenAgUiServer {
  /** The agent URL a client POSTs RunAgentInput to. */
  url: string;
  /** How many times the tool ran (approved, or unasked). */
  toolRuns(): number;
  /** The headers of every request, in order. */
  requests(): IncomingMessage['headers'][];
  close(): Promise<void>;
}

const TOOL = 'payInvoice';

export async function startBrokenAgUiServer(options: { flaw?: AgUiFlaw; requireHeaders?: Record<string, string> } = {}): Promise<BrokenAgUiServer> {
  const threads = new Map<string, Thread>();
  const seen: IncomingMessage['headers'][] = [];
  let toolRuns = 0;

  const server = createServer((request, response) => {
    seen.push(request.headers);
    void answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'internal_error', message: String(error) } }));
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'POST') return json(response, 405, { error: { code: 'method_not_allowed', message: 'POST a RunAgentInput.' } });
    for (const [name, value] of Object.entries(options.requireHeaders ?? {})) {
      if (request.headers[name.toLowerCase()] !== value) return json(response, 401, { error: { code: 'unauthorized', message: `Send ${name}.` } });
    }
    let body = '';
    for await (const chunk of request) body += chunk;
    const input = JSON.parse(body) as RunAgentInput;
    const thread = threads.get(input.threadId) ?? { messages: [], pending: [], decided: new Set<string>() };
    threads.set(input.threadId, thread);

    const encoder = new EventEncoder({ accept: request.headers.accept });
    response.writeHead(200, { 'content-type': encoder.getContentType(), 'cache-control': 'no-cache' });
    const send = (event: Record<string, unknown>) => response.write(encoder.encodeSSE(event as unknown as BaseEvent));
    const finish = (outcome: Record<string, unknown>) => {
      send({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId, outcome });
      response.end();
    };
    const refuse = (code: string, message: string) => {
      send({ type: EventType.RUN_ERROR, code, message });
      response.end();
    };

    send({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId });
    if (options.flaw === 'hangs') return;

    if (input.resume?.length) {
      const open = new Set(thread.pending.map((interrupt) => interrupt.id));
      const unknown = input.resume.find((entry) => !open.has(entry.interruptId) && !thread.decided.has(entry.interruptId));
      if (unknown) return refuse('not_found', `No interrupt ${unknown.interruptId} on this thread.`);
      if (input.resume.every((entry) => thread.decided.has(entry.interruptId))) {
        // The same resume again: the thread as it stands, nothing run.
        send({ type: EventType.MESSAGES_SNAPSHOT, messages: thread.messages });
        return finish({ type: 'success' });
      }
      if (thread.pending.some((interrupt) => !input.resume!.some((entry) => entry.interruptId === interrupt.id)))
        return refuse('resume_incomplete', 'Answer every open interrupt.');
      for (const interrupt of thread.pending) {
        const entry = input.resume.find((candidate) => candidate.interruptId === interrupt.id)!;
        const approved = entry.status === 'resolved' && (entry.payload as { approved?: boolean } | undefined)?.approved !== false;
        if (approved) toolRuns += 1;
        const content = approved ? JSON.stringify({ paid: true, summary: 'Paid.' }) : 'The user rejected this call; it did not run.';
        const result = { id: randomUUID(), role: 'tool' as const, toolCallId: interrupt.toolCallId!, content };
        thread.messages.push(result);
        thread.decided.add(interrupt.id);
        send({ type: EventType.TOOL_CALL_RESULT, messageId: result.id, toolCallId: result.toolCallId, content, role: 'tool' });
      }
      thread.pending = [];
      reply(thread, send, 'Done.');
      return finish({ type: 'success' });
    }

    const fresh = input.messages.filter((message) => !thread.messages.some((known) => known.id === message.id));
    if (fresh.length === 0) {
      // A reopened thread: its conversation, and what it waits on.
      send({ type: EventType.MESSAGES_SNAPSHOT, messages: thread.messages });
      const pending = options.flaw === 'forgets-interrupt-on-reconnect' ? [] : thread.pending;
      return finish(pending.length ? { type: 'interrupt', interrupts: pending } : { type: 'success' });
    }
    if (thread.pending.length) return refuse('interrupts_pending', 'This thread waits on a decision; resume it first.');
    thread.messages.push(...fresh);

    const toolCallId = `call_${randomUUID()}`;
    const assistantId = randomUUID();
    const args = JSON.stringify({ invoiceId: 'inv_7', amount: 19.99 });
    send({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: TOOL, parentMessageId: assistantId });
    send({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: args });
    send({ type: EventType.TOOL_CALL_END, toolCallId });
    thread.messages.push({ id: assistantId, role: 'assistant', toolCalls: [{ id: toolCallId, type: 'function', function: { name: TOOL, arguments: args } }] });

    if (options.flaw === 'runs-tool-unasked') {
      toolRuns += 1;
      const result = { id: randomUUID(), role: 'tool' as const, toolCallId, content: JSON.stringify({ paid: true }) };
      thread.messages.push(result);
      send({ type: EventType.TOOL_CALL_RESULT, messageId: result.id, toolCallId, content: result.content, role: 'tool' });
      reply(thread, send, 'Paid.');
      return finish({ type: 'success' });
    }
    const interrupt: Interrupt = { id: `int_${randomUUID()}`, reason: 'tool_call', toolCallId, message: 'Pay $19.99 on invoice inv_7' };
    thread.pending = [interrupt];
    send({ type: EventType.MESSAGES_SNAPSHOT, messages: thread.messages });
    return finish({ type: 'interrupt', interrupts: [interrupt] });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/agent`,
    toolRuns: () => toolRuns,
    requests: () => seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The assistant's closing text, streamed and kept. */
function reply(thread: Thread, send: (event: Record<string, unknown>) => void, text: string) {
  const messageId = randomUUID();
  send({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' });
  send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text });
  send({ type: EventType.TEXT_MESSAGE_END, messageId });
  thread.messages.push({ id: messageId, role: 'assistant', content: text });
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
