// AG-UI test clients: the real HttpAgent, and a raw SSE reader for the cases HttpAgent
// would refuse to send or hides. Every event read is validated against @ag-ui/core/schemas.
import { randomUUID } from 'node:crypto';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, Message, ResumeEntry, RunAgentInput } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { EventSourceParserStream } from 'eventsource-parser/stream';

export function validateEvent(event: unknown): BaseEvent {
  const parsed = EventSchemas.safeParse(event);
  if (!parsed.success) throw new Error(`Invalid AG-UI event ${JSON.stringify(event)}: ${parsed.error.message}`);
  return event as BaseEvent;
}

/** POSTs a RunAgentInput and reads the whole SSE response. */
export async function postRun(baseUrl: string, agent: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}/api/agents/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      text: await response.text(),
      events: [] as BaseEvent[],
      ids: [] as (string | undefined)[],
    };
  }
  const { events, ids } = await readStream(response);
  return { status: response.status, contentType: response.headers.get('content-type'), text: '', events, ids };
}

export interface StreamedEvent {
  /** The SSE `id:` (the event's cursor), when the server sent one. */
  id?: string;
  event: BaseEvent;
}

/**
 * Reads an AG-UI SSE response event by event (each validated), until it ends or `stop`
 * says enough — then the connection is dropped, as a closed tab would drop it.
 */
export async function readStream(response: Response, stop?: (entry: StreamedEvent, all: StreamedEvent[]) => boolean) {
  const all: StreamedEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      const entry = { ...(value.id ? { id: value.id } : {}), event: validateEvent(JSON.parse(value.data)) };
      all.push(entry);
      if (stop?.(entry, all)) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { entries: all, events: all.map((entry) => entry.event), ids: all.map((entry) => entry.id) };
}

/** POSTs a run and reads it until `stop` (then drops the connection). */
export async function openRun(
  baseUrl: string,
  agent: string,
  body: RunAgentInput | Record<string, unknown>,
  stop?: (entry: StreamedEvent, all: StreamedEvent[]) => boolean,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}/api/agents/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return readStream(response, stop);
}

/** GETs a run's or the session's stream from a cursor (`Last-Event-ID` when asked). */
export async function joinStream(
  baseUrl: string,
  agent: string,
  query: Record<string, string>,
  options: { lastEventId?: string; stop?: (entry: StreamedEvent, all: StreamedEvent[]) => boolean } = {},
) {
  const response = await fetch(`${baseUrl}/api/agents/${agent}?${new URLSearchParams(query)}`, {
    headers: { accept: 'text/event-stream', ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) },
  });
  if (!response.ok) return { status: response.status, body: await response.json(), entries: [], events: [], ids: [] };
  return { status: response.status, body: null, ...(await readStream(response, options.stop)) };
}

/** The hydration JSON of a thread. */
export async function readThread(baseUrl: string, agent: string, threadId: string) {
  const response = await fetch(`${baseUrl}/api/agents/${agent}?threadId=${encodeURIComponent(threadId)}`, { headers: { accept: 'application/json' } });
  return { status: response.status, body: await response.json() };
}

export async function stopRun(baseUrl: string, agent: string, body: Record<string, unknown>) {
  const response = await fetch(`${baseUrl}/api/agents/${agent}/stop`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

export function userMessage(content: string): Message {
  return { id: randomUUID(), role: 'user', content };
}

/** A whole RunAgentInput with one new user message, as a client posts it (fresh runId unless given). */
export function runInput(threadId: string, content: string, runId = randomUUID()): RunAgentInput {
  return { threadId, runId, messages: [userMessage(content)], tools: [], context: [], state: {}, forwardedProps: {} };
}

/** Runs HttpAgent once, after adding a user message with this content. */
export async function runHttpAgent(agent: HttpAgent, content?: string) {
  if (content) agent.addMessage(userMessage(content));
  return runCollecting(agent, { runId: randomUUID() });
}

/**
 * One run of the agent, collecting every event it saw (each validated) and anything it
 * logged through console.warn / console.error (which must stay empty).
 */
async function runCollecting(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0]) {
  const events: BaseEvent[] = [];
  const logged: unknown[][] = [];
  const { warn, error } = console;
  console.warn = (...args: unknown[]) => logged.push(args);
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const result = await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(validateEvent(event)) });
    return { result, events, logged };
  } finally {
    console.warn = warn;
    console.error = error;
  }
}

/**
 * HttpAgent that sends parentRunId = the interrupted run when it resumes (docs/hitl.md);
 * HttpAgent has no run parameter for it, so the input is extended here.
 */
class ResumingHttpAgent extends HttpAgent {
  lastRunId?: string;
  protected prepareRunAgentInput(parameters?: Parameters<HttpAgent['runAgent']>[0]): RunAgentInput {
    const input = super.prepareRunAgentInput(parameters);
    const withParent = parameters?.resume?.length && this.lastRunId ? { ...input, parentRunId: this.lastRunId } : input;
    this.lastRunId = input.runId;
    return withParent;
  }
}

export function newHttpAgent(baseUrl: string, agent: string, threadId: string = randomUUID()) {
  return new ResumingHttpAgent({ url: `${baseUrl}/api/agents/${agent}`, threadId });
}

/** Resumes the agent's open interrupts with one decision each. */
export async function resumeHttpAgent(agent: HttpAgent, decide: (interruptId: string, index: number) => Omit<ResumeEntry, 'interruptId'>) {
  const resume = agent.pendingInterrupts.map((interrupt, index) => ({ interruptId: interrupt.id, ...decide(interrupt.id, index) }) as ResumeEntry);
  return { ...(await runCollecting(agent, { runId: randomUUID(), resume })), resume };
}

/** A 1×1 PNG (70 bytes): the smallest real image to attach. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** A small PDF: its header is what the server reads of it. */
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

export interface UploadedAttachment {
  id: string;
  url: string;
  mediaType: string;
  filename: string;
  size: number;
}

/** POST /api/agents/{agent}/attachments as a browser's form sends it (multipart, field `file`). */
export async function uploadAttachment(baseUrl: string, agent: string, bytes: Uint8Array, filename: string, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/octet-stream' }), filename);
  const response = await fetch(`${baseUrl}/api/agents/${agent}/attachments`, { method: 'POST', body: form, headers });
  return { status: response.status, body: (await response.json()) as UploadedAttachment & { error?: { code: string; message: string } } };
}

/** A user message with text and one AG-UI content part per attachment, as the chat sends it. */
export function attachmentMessage(text: string, attachments: UploadedAttachment[]): Message {
  return {
    id: randomUUID(),
    role: 'user',
    content: [
      { type: 'text', text },
      ...attachments.map((file) => ({
        type: file.mediaType.startsWith('image/') ? ('image' as const) : ('document' as const),
        source: { type: 'url' as const, value: file.url, mimeType: file.mediaType },
        metadata: { filename: file.filename, size: file.size },
      })),
    ],
  };
}
