// One AG-UI exchange: POST a RunAgentInput to an agent URL and read the run's events, as any
// AG-UI client does. The transport and the SSE parsing are @ag-ui/client's own (HttpAgent.run),
// and its verifier (verifyEvents) checks the stream keeps the protocol's event rules; nothing is
// applied to a client state, so the conformance checks judge exactly what the server sent
// (docs/conformance.md).
import { HttpAgent, verifyEvents } from '@ag-ui/client';
import { EventType } from '@ag-ui/core';

/** The Content-Types of an AG-UI event stream: SSE, or @ag-ui/encoder's binary (protobuf) one. */
const STREAM_TYPES = ['text/event-stream', 'application/vnd.ag-ui.event+proto'];

/**
 * Where the exchanges go and how.
 * @typedef {{ url: string, headers: Record<string, string>, timeoutMs: number }} Target
 */

/**
 * What went wrong with an exchange, when something did before or instead of events.
 * - `http`: the server answered a non-2xx status (a bare status, not an event on the stream);
 * - `not-a-stream`: a 2xx that is not an AG-UI event stream;
 * - `network`: the server could not be reached;
 * - `timeout`: the run did not end within the timeout;
 * - `protocol`: the stream broke the AG-UI event rules, or a frame was not an event.
 * @typedef {{ kind: 'http' | 'not-a-stream' | 'network' | 'timeout' | 'protocol', message: string, status?: number, body?: unknown }} ExchangeFailure
 */

/**
 * One request and what came back.
 * @typedef {{
 *   runId: string,
 *   status: number | null,
 *   events: import('@ag-ui/core').BaseEvent[],
 *   failure: ExchangeFailure | null,
 * }} Exchange
 */

/**
 * POSTs `input` to the target and reads the whole run (until the stream ends, or the timeout).
 * Never throws for what the server did: a failure is part of the answer.
 * @param {Target} target
 * @param {import('@ag-ui/core').RunAgentInput} input
 * @param {{ headers?: Record<string, string> }} [options] headers for this request only (e.g. Last-Event-ID)
 * @returns {Promise<Exchange>}
 */
export async function exchange(target, input, options = {}) {
  /** @type {number | null} */
  let status = null;
  let contentType = '';
  let timedOut = false;
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort();
  }, target.timeoutMs);

  const agent = new HttpAgent({
    url: target.url,
    headers: { ...target.headers, ...options.headers },
    fetch: async (url, init) => {
      const signals = [timeout.signal, ...(init?.signal ? [init.signal] : [])];
      const response = await fetch(url, { ...init, signal: AbortSignal.any(signals) });
      status = response.status;
      contentType = response.headers.get('content-type') ?? '';
      return response;
    },
  });

  /** @type {import('@ag-ui/core').BaseEvent[]} */
  const events = [];
  /** @type {unknown} */
  const error = await new Promise((resolve) => {
    verifyEvents()(agent.run(input)).subscribe({
      next: (event) => events.push(event),
      error: resolve,
      complete: () => resolve(undefined),
    });
  });
  clearTimeout(timer);

  if (timedOut) {
    // HttpAgent turns an aborted read into a RUN_ERROR of its own (code "abort"): not the server's.
    const last = events.at(-1);
    if (last?.type === EventType.RUN_ERROR && /** @type {{ code?: string }} */ (last).code === 'abort') events.pop();
    const seconds = target.timeoutMs / 1000;
    return { runId: input.runId, status, events, failure: { kind: 'timeout', message: `the run did not end within ${seconds}s (--timeout)` } };
  }
  if (error !== undefined) return { runId: input.runId, status, events, failure: describeError(error, target.url) };
  if (status !== null && !STREAM_TYPES.some((type) => contentType.startsWith(type))) {
    return {
      runId: input.runId,
      status,
      events,
      failure: { kind: 'not-a-stream', status, message: `answered ${status} ${contentType || 'without a Content-Type'}, not an AG-UI event stream` },
    };
  }
  return { runId: input.runId, status, events, failure: null };
}

/**
 * @param {unknown} error what the event stream failed with
 * @param {string} url
 * @returns {ExchangeFailure}
 */
function describeError(error, url) {
  const failed = /** @type {{ status?: number, payload?: unknown, message?: string, cause?: { code?: string, message?: string } }} */ (error ?? {});
  // runHttpRequest's error for a non-2xx answer carries the status and the body.
  if (typeof failed.status === 'number') {
    const body = failed.payload;
    const code = errorCode(body);
    return { kind: 'http', status: failed.status, body, message: `answered HTTP ${failed.status}${code ? ` (${code})` : ''}` };
  }
  if (error instanceof TypeError && failed.cause) {
    return { kind: 'network', message: `cannot reach ${url} (${failed.cause.code ?? failed.cause.message ?? failed.message})` };
  }
  return { kind: 'protocol', message: `the stream is not valid AG-UI: ${failed.message ?? String(error)}` };
}

/** The error code of a JSON error body (`{error: {code}}`, `{code}`), when it has one. @param {unknown} body */
function errorCode(body) {
  if (!body || typeof body !== 'object') return undefined;
  const record = /** @type {{ code?: unknown, error?: { code?: unknown } }} */ (body);
  const code = record.error?.code ?? record.code;
  return typeof code === 'string' ? code : undefined;
}
