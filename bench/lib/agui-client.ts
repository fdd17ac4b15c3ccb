// The bench's AG-UI client: runs, resumes and thread reads over HTTP, timed from the moment
// the request is sent (docs/internals/wires.md has the shapes).
import { randomUUID } from 'node:crypto';
import { agUiType, readSse } from './sse';
import type { StreamRun } from './stream-run';

export interface TimedRun {
  status: number;
  /** ms from sending to the first event / the first text delta / the stream's end. */
  firstEventMs: number | null;
  firstTokenMs: number | null;
  totalMs: number;
  textDeltas: number;
  types: string[];
  /** The RUN_FINISHED event, parsed. */
  finished?: RunFinished;
  /** Why the run counts as failed (a refusal, a RUN_ERROR, a stream that did not finish). */
  failure?: string;
}

interface RunFinished {
  runId: string;
  outcome?: { type: string; interrupts?: { id: string; toolCallId: string }[] };
}

export function runInput(threadId: string, content: string | null, extra: Record<string, unknown> = {}) {
  return {
    threadId,
    runId: randomUUID(),
    messages: content === null ? [] : [{ id: randomUUID(), role: 'user', content }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    ...extra,
  };
}

/** POSTs a run and reads it to its end; `stopAt` (an AG-UI type) leaves the stream there. */
export async function timedRun(
  baseUrl: string,
  body: Record<string, unknown>,
  options: { agent?: string; stopAt?: string; keepTypes?: boolean } = {},
): Promise<TimedRun> {
  const sent = performance.now();
  const run: TimedRun = { status: 0, firstEventMs: null, firstTokenMs: null, totalMs: NaN, textDeltas: 0, types: [] };
  try {
    const response = await fetch(`${baseUrl}/api/agents/${options.agent ?? 'helpdesk'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
    });
    run.status = response.status;
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      run.failure = `answered ${response.status}: ${(await response.text()).slice(0, 300)}`;
      run.totalMs = performance.now() - sent;
      return run;
    }
    let lastType: string | undefined;
    const ended = await readSse(response, ({ data, at }) => {
      run.firstEventMs ??= at - sent;
      const type = agUiType(data);
      lastType = type;
      if (options.keepTypes) run.types.push(type ?? '?');
      if (type === 'TEXT_MESSAGE_CONTENT') {
        run.firstTokenMs ??= at - sent;
        run.textDeltas++;
      } else if (type === 'RUN_FINISHED') run.finished = JSON.parse(data) as RunFinished;
      else if (type === 'RUN_ERROR') run.failure = `RUN_ERROR ${data.slice(0, 300)}`;
      return type === options.stopAt;
    });
    run.totalMs = ended - sent;
    if (!run.failure && lastType !== 'RUN_FINISHED' && lastType !== options.stopAt) run.failure = `the stream ended on ${lastType}`;
  } catch (error) {
    run.failure = String(error);
    run.totalMs = performance.now() - sent;
  }
  return run;
}

/** The product's reply to `prompt` on a new thread, over AG-UI (POST /api/agents/helpdesk). */
export async function oursRun(baseUrl: string, prompt: string): Promise<StreamRun> {
  const run = await timedRun(baseUrl, runInput(randomUUID(), prompt));
  if (run.failure) throw new Error(`A run ("${prompt}") failed: ${run.failure}`);
  return { firstTokenMs: run.firstTokenMs ?? NaN, totalMs: run.totalMs, deltas: run.textDeltas };
}

/** A run that must succeed (setting up a measurement, not measured). */
export async function completedRun(baseUrl: string, body: Record<string, unknown>): Promise<TimedRun> {
  const run = await timedRun(baseUrl, body);
  if (run.failure) throw new Error(`A bench run failed: ${run.failure}`);
  return run;
}

/**
 * After a pause in the traffic (the bench writing a thread or copying sessions by itself), a
 * kept-alive connection may be one the server is closing: a request sent on it fails with
 * "other side closed" before reaching the server. One untimed request, retried, makes sure the
 * next timed one goes out on a live connection.
 */
export async function pingServer(baseUrl: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      await response.arrayBuffer();
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

export interface Hydration {
  cursor: string;
  interrupts: { runId: string; pending: { id: string }[] } | null;
  messages: unknown[];
}

export async function hydrate(baseUrl: string, threadId: string, agent = 'helpdesk'): Promise<Hydration> {
  const response = await fetch(`${baseUrl}/api/agents/${agent}?threadId=${encodeURIComponent(threadId)}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Hydrating ${threadId} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Hydration;
}

/** Opens the thread's session stream from a cursor; resolves once the server answered. */
export async function openSessionStream(baseUrl: string, threadId: string, cursor: string, signal: AbortSignal, agent = 'helpdesk'): Promise<Response> {
  const response = await fetch(`${baseUrl}/api/agents/${agent}?${new URLSearchParams({ threadId, offset: cursor })}`, {
    headers: { accept: 'text/event-stream' },
    signal,
  });
  if (!response.ok) throw new Error(`The session stream of ${threadId} answered ${response.status}: ${await response.text()}`);
  return response;
}
