// The HTTP client for the out-of-band API (docs/cli.md): GET /api/hitl (a page at a time),
// POST /api/hitl/{id}/{approve|reject|cancel} and POST /api/v1/sessions/{threadId}/stop; the
// decision export, a session's recording and its replay (docs/replay.md).
// Node 22's fetch, no dependencies.

/** The server answered, but not with success (4xx/5xx, or something that is not the API). */
/** The server the CLI asks when neither --url nor STACKBONE_URL names one: `npm run dev`'s. */
export const DEFAULT_URL = 'http://localhost:3000';

export class ServerError extends Error {
  /**
   * @param {number} status HTTP status
   * @param {string} code the server's error code (or a synthesized one)
   * @param {string} message
   * @param {unknown} body the response body to print with --json: the server's own `{error}` when it sent one
   */
  constructor(status, code, message, body) {
    super(message);
    this.name = 'ServerError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** The server could not be reached at all (refused, DNS, timeout). */
export class UnreachableError extends Error {
  /** @param {string} url @param {string} reason */
  constructor(url, reason) {
    super(`Cannot reach the Stackbone server at ${url} (${reason}). Is it running? Set STACKBONE_URL or pass --url.`);
    this.name = 'UnreachableError';
    this.code = 'unreachable';
    this.url = url;
  }
}

const TIMEOUT_MS = 30_000;

/**
 * @param {{ url: string, apiKey?: string, version: string }} options
 */
export function createClient({ url, apiKey, version }) {
  const base = url.replace(/\/+$/, '');

  /**
   * @param {'GET' | 'POST'} method @param {string} path @param {unknown} [body]
   * @param {{ lines?: boolean }} [options] lines: the answer is JSONL, returned as its text
   */
  async function request(method, path, body, options = {}) {
    /** @type {Record<string, string>} */
    const headers = {
      accept: options.lines ? 'application/x-ndjson, application/json' : 'application/json',
      'user-agent': `stackbone-cli/${version}`,
      // The audit trail records the CLI as the decider (or as the one who stopped the run).
      'x-stackbone-client': 'cli',
    };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';

    let response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new UnreachableError(base, networkReason(error));
    }

    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const error = json && typeof json === 'object' && json.error && typeof json.error === 'object' ? json.error : undefined;
      const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
      const message =
        typeof error?.message === 'string' ? error.message : `${response.status} ${response.statusText || 'error'}${text && !json ? `: ${snippet(text)}` : ''}`;
      throw new ServerError(response.status, code, message, error ? json : { error: { code, message, status: response.status } });
    }
    if (options.lines && (response.headers.get('content-type') ?? '').startsWith('application/x-ndjson')) return text;
    if (json === undefined || typeof json !== 'object') {
      const message = `The server at ${base} answered ${response.status} without JSON: is STACKBONE_URL pointing at a Stackbone app?`;
      throw new ServerError(response.status, 'bad_response', message, { error: { code: 'bad_response', message, status: response.status } });
    }
    return json;
  }

  return {
    /**
     * One page of the pending list (docs/hitl.md, "Paging the inbox").
     * @param {{ filter?: string, cursor?: string, limit?: number }} [query]
     * @returns {Promise<{ interrupts: any[], nextCursor?: string | null }>}
     */
    list: (query = {}) => request('GET', `/api/hitl${queryString(query)}`),
    /**
     * @param {string} id
     * @param {'approve' | 'reject' | 'cancel'} action
     * @param {Record<string, unknown>} body
     */
    decide: (id, action, body) => request('POST', `/api/hitl/${encodeURIComponent(id)}/${action}`, body),
    /**
     * A persisted stop of the session's run: the one named by `runId`, else whichever runs now.
     * @param {string} threadId
     * @param {{ runId?: string }} body
     * @returns {Promise<{ threadId: string, runId: string | null, stopped: boolean, reason?: 'not_running' | 'other_run', frontier?: string | null, requestedAt?: string }>}
     */
    stop: (threadId, body) => request('POST', `/api/v1/sessions/${encodeURIComponent(threadId)}/stop`, body),
    /** The decisions the key may see, JSONL. @returns {Promise<string>} */
    decisions: () => /** @type {Promise<string>} */ (request('GET', '/api/hitl/decisions', undefined, { lines: true })),
    /** A session's recording file, JSONL. @param {string} key @returns {Promise<string>} */
    recording: (key) => /** @type {Promise<string>} */ (request('GET', `/api/v1/sessions/${encodeURIComponent(key)}/recording`, undefined, { lines: true })),
    /** Replays the session against its agent's code, or `against`'s; answers the report. @param {string} key @param {{ against?: string }} body */
    replay: (key, body) => request('POST', `/api/v1/sessions/${encodeURIComponent(key)}/replay`, body),
    /** The signed-up users and their roles (an admin's). */
    team: () => request('GET', '/api/studio/team'),
    /** Gives or takes a role (an admin's). @param {{ email: string, role: string, remove?: boolean }} change */
    setRole: (change) => request('POST', '/api/studio/team/roles', change),
  };
}

/** `?a=1&b=2` of the values given, or nothing. @param {Record<string, string | number | undefined>} query */
function queryString(query) {
  const entries = Object.entries(query).filter(([, value]) => value !== undefined);
  return entries.length ? `?${new URLSearchParams(entries.map(([name, value]) => [name, String(value)]))}` : '';
}

/** @param {unknown} error */
function networkReason(error) {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${TIMEOUT_MS / 1000}s`;
  const cause = error instanceof Error ? /** @type {any} */ (error).cause : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** @param {string} text */
function snippet(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
