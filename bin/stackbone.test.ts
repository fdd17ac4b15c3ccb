// Unit tests of the CLI (bin/stackbone.mjs): argument parsing, usage errors, formatting, and
// its HTTP behaviour against a tiny node:http server that imitates /api/hitl and
// /api/v1/sessions/{threadId}/stop. The CLI runs as a
// child process, exactly as `npx stackbone` would. The end-to-end test against the real server
// lives with the e2e suites.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const CLI = new URL('./stackbone.mjs', import.meta.url).pathname;
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

// The lib modules are plain JavaScript (no declarations): import them untyped and describe the
// few functions the tests call.
type Format = {
  formatDuration(ms: number): string;
  formatTable(interrupts: unknown[], options?: { now?: number; width?: number }): string;
  formatCall(interrupt: unknown, extra?: { now?: number; edit?: unknown; payload?: unknown; reason?: string }): string;
  formatDecision(result: unknown): string;
  formatStop(result: unknown): string;
};
type Prompt = { confirm(question: string, streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }): Promise<boolean> };
const importLib = <T>(name: string) => import(new URL(`./lib/${name}`, import.meta.url).href) as Promise<T>;

// ---------------------------------------------------------------- the fake server

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
interface Reply {
  status?: number;
  json?: unknown;
  text?: string;
  /** A JSONL answer (the exports). */
  lines?: string;
}

const NOW = Date.now();
const INTERRUPT = {
  id: 'int_0b6e7a52-1',
  sessionId: 'ses_1',
  agent: 'support',
  reason: 'tool_call',
  toolCallId: 'call_1',
  toolName: 'refundOrder',
  args: { orderId: 'A-17', amount: 25 },
  message: 'Refund order A-17 for 25',
  responseSchema: { type: 'object' },
  allowedDecisions: ['approve', 'reject', 'edit'],
  expiresAt: new Date(NOW + 2 * 3600_000).toISOString(),
  createdAt: new Date(NOW - 5 * 60_000).toISOString(),
};
const SECOND = {
  ...INTERRUPT,
  id: 'int_2',
  agent: 'planner',
  toolName: 'closeTicket',
  message: 'Close ticket 9',
  expiresAt: null,
  createdAt: new Date(NOW - 30_000).toISOString(),
};

function decided(action: string, id: string, body: Record<string, unknown>) {
  const status = action === 'approve' ? 'approved' : action === 'reject' ? 'denied' : 'cancelled';
  return {
    interrupt: { id, sessionId: 'ses_1', toolName: 'refundOrder', toolCallId: 'call_1' },
    decision: { status, ...body, by: { source: 'cli', ownerId: 'local' } },
    continuation: { runId: 'run_2' },
  };
}

const REQUESTED_AT = new Date(NOW).toISOString();
function stopped(threadId: string, body: { runId?: string }) {
  return { threadId, runId: body.runId ?? 'run_live', stopped: true, frontier: null, requestedAt: REQUESTED_AT };
}

let server: Server;
let baseUrl = '';
let seen: Seen[] = [];
/** Overrides the default answer for one test: (request) => reply. */
let respond: ((request: Seen) => Reply | undefined) | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      const reply = respond?.(request) ?? defaultReply(request);
      res.statusCode = reply.status ?? 200;
      if (reply.lines !== undefined) {
        res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
        res.end(reply.lines);
      } else if (reply.text !== undefined) {
        res.setHeader('content-type', 'text/html');
        res.end(reply.text);
      } else {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(reply.json));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  respond = undefined;
});

/** Three pages of pending interrupts, by cursor (none: the first), as GET /api/hitl pages them (docs/hitl.md, "Paging the inbox"). */
const PAGED = {
  '': { interrupts: [INTERRUPT], nextCursor: 'c2' },
  c2: { interrupts: [SECOND], nextCursor: 'c3' },
  c3: { interrupts: [{ ...SECOND, id: 'int_3', message: 'Close ticket 10' }], nextCursor: null },
} as Record<string, unknown>;
/** The query of a request to the fake server. */
const queryOf = (request: Seen) => Object.fromEntries(new URL(request.url, 'http://x').searchParams);
/** Answers GET /api/hitl from PAGED, by the cursor asked for. */
const paged = (request: Seen): Reply | undefined =>
  request.url.startsWith('/api/hitl?') || request.url === '/api/hitl' ? { json: PAGED[queryOf(request).cursor ?? ''] } : undefined;

function defaultReply(request: Seen): Reply {
  if (request.method === 'GET' && new URL(request.url, 'http://x').pathname === '/api/hitl')
    return { json: { interrupts: [INTERRUPT, SECOND], nextCursor: null } };
  const match = request.method === 'POST' && request.url.match(/^\/api\/hitl\/([^/]+)\/(approve|reject|cancel)$/);
  if (match) return { json: decided(match[2]!, decodeURIComponent(match[1]!), JSON.parse(request.body || '{}') as Record<string, unknown>) };
  const stop = request.method === 'POST' && request.url.match(/^\/api\/v1\/sessions\/([^/]+)\/stop$/);
  if (stop) return { json: stopped(decodeURIComponent(stop[1]!), JSON.parse(request.body || '{}') as { runId?: string }) };
  return { status: 404, json: { error: { code: 'not_found', message: `No route ${request.method} ${request.url}.` } } };
}

// ---------------------------------------------------------------- running the CLI

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a child (asynchronously: the fake server lives in this process). */
function run(args: string[], env: Record<string, string | undefined> = {}, options: { command?: string; argv?: string[] } = {}): Promise<Run> {
  const base: Record<string, string | undefined> = { ...process.env, STACKBONE_URL: baseUrl, STACKBONE_API_KEY: undefined, NO_COLOR: '1' };
  const childEnv = Object.fromEntries(
    Object.entries({ ...base, ...env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ) as NodeJS.ProcessEnv;
  return new Promise((resolve, reject) => {
    const child = spawn(options.command ?? process.execPath, options.argv ?? [CLI, ...args], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(); // not a terminal, and nothing to read
  });
}

// ---------------------------------------------------------------- help and usage errors

describe('help and version', () => {
  it('prints the main help with --help and -h (exit 0)', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await run([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('stackbone hitl approve <id> [--yes]');
      expect(result.stdout).toContain('stackbone session stop <threadId> [--run <runId>] [--json]');
      expect(result.stdout).toContain('STACKBONE_URL');
      expect(result.stderr).toBe('');
    }
  });

  it('prints the hitl help and each command help', async () => {
    const hitl = await run(['hitl', '--help']);
    expect(hitl.code).toBe(0);
    expect(hitl.stdout).toMatch(/list[\s\S]*approve <id>[\s\S]*reject <id>[\s\S]*cancel <id>/);
    const approve = await run(['hitl', 'approve', '--help']);
    expect(approve.code).toBe(0);
    expect(approve.stdout).toContain("--edit '<json>'");
    const session = await run(['session', '--help']);
    expect(session.code).toBe(0);
    expect(session.stdout).toMatch(/stop <threadId>[\s\S]*--run <runId>/);
    const stop = await run(['session', 'stop', '--help']);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain('Usage: stackbone session stop <threadId> [--run <runId>]');
    expect(seen).toHaveLength(0);
  });

  it('prints the conformance help, and the main help names the command', async () => {
    const help = await run(['conformance', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: stackbone conformance <agent-url> --prompt "<message>"');
    expect(help.stdout).toMatch(/interrupt[\s\S]*reconnect[\s\S]*message-while-paused[\s\S]*unknown-interrupt[\s\S]*approve[\s\S]*resume-replay[\s\S]*reject/);
    expect(help.stdout).toContain('--header "Name: value"');
    expect((await run(['--help'])).stdout).toContain('stackbone conformance <agent-url> --prompt "<message>"');
  });

  it('prints the package version', async () => {
    for (const flag of ['--version', '-v']) {
      const result = await run([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe(VERSION);
    }
  });

  it('without a command prints the help on stderr and exits 2', async () => {
    const bare = await run([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('Usage:');
    const hitl = await run(['hitl']);
    expect(hitl.code).toBe(2);
    expect(hitl.stderr).toContain('Usage: stackbone hitl <command>');
    const session = await run(['session']);
    expect(session.code).toBe(2);
    expect(session.stderr).toContain('Usage: stackbone session <command>');
  });
});

describe('usage errors exit 2 and send nothing', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown command', ['deploy'], /Unknown command "deploy"/],
    ['a command without its group', ['approve', 'int_1'], /Did you mean "stackbone hitl approve"/],
    ['an unknown hitl command', ['hitl', 'show', 'int_1'], /Unknown command "hitl show"/],
    ['an unknown flag', ['hitl', 'list', '--force'], /Unknown option '--force'/],
    ['a flag of another command', ['hitl', 'list', '--yes'], /--yes is not valid for "hitl list"/],
    ['--edit on reject', ['hitl', 'reject', 'int_1', '--yes', '--edit', '{}'], /--edit is not valid for "hitl reject"/],
    ['--reason on approve', ['hitl', 'approve', 'int_1', '--yes', '--reason', 'no'], /--reason is not valid for "hitl approve"/],
    ['a missing id', ['hitl', 'approve', '--yes'], /Missing the interrupt id/],
    ['two ids', ['hitl', 'cancel', 'int_1', 'int_2', '--yes'], /Unexpected argument "int_2"/],
    ['an argument to list', ['hitl', 'list', 'int_1'], /takes no arguments/],
    ['an unknown --filter', ['hitl', 'list', '--filter', 'everyone'], /--filter must be mine, key-holders or all/],
    ['--all with --cursor', ['hitl', 'list', '--all', '--cursor', 'c2'], /--all or --cursor <cursor>, not both/],
    ['an empty --cursor', ['hitl', 'list', '--cursor='], /--cursor needs the nextCursor of a page/],
    ['--filter on a decision', ['hitl', 'approve', 'int_1', '--yes', '--filter', 'mine'], /--filter is not valid for "hitl approve"/],
    ['invalid --edit JSON', ['hitl', 'approve', 'int_1', '--yes', '--edit', '{amount: 3}'], /--edit must be valid JSON/],
    ['invalid --payload JSON', ['hitl', 'reject', 'int_1', '--yes', '--payload', "{'note':1}"], /--payload must be valid JSON/],
    ['--edit without a value', ['hitl', 'approve', 'int_1', '--yes', '--edit'], /--edit/],
    ['an invalid --url', ['hitl', 'list', '--url', 'localhost:3000'], /Invalid server URL "localhost:3000"/],
    ['a non-terminal stdin without --yes', ['hitl', 'approve', 'int_1'], /stdin is not a terminal.*pass --yes/],
    ['stop without its group', ['stop', 'thread_1'], /Did you mean "stackbone session stop"/],
    ['an unknown session command', ['session', 'kill', 'thread_1'], /Unknown command "session kill": use stop\./],
    ['a missing thread id', ['session', 'stop'], /Missing the thread id/],
    ['two thread ids', ['session', 'stop', 'thread_1', 'thread_2'], /Unexpected argument "thread_2"/],
    ['--yes on session stop', ['session', 'stop', 'thread_1', '--yes'], /--yes is not valid for "session stop"/],
    ['--run on a hitl command', ['hitl', 'cancel', 'int_1', '--yes', '--run', 'run_1'], /--run is not valid for "hitl cancel"/],
    ['--run without a value', ['session', 'stop', 'thread_1', '--run'], /--run/],
    ['an empty --run', ['session', 'stop', 'thread_1', '--run='], /--run needs a run id/],
    ['conformance without its agent URL', ['conformance', '--prompt', 'refund'], /Missing the agent URL/],
    ['conformance without --prompt', ['conformance', 'http://127.0.0.1:9/agent'], /Missing --prompt/],
    ['conformance with two URLs', ['conformance', 'http://a.test/x', 'http://b.test/y', '--prompt', 'x'], /Unexpected argument "http:\/\/b.test\/y"/],
    ['conformance with a URL that is not http', ['conformance', 'localhost:3000/api/agents/support', '--prompt', 'x'], /Invalid agent URL/],
    [
      '--url on conformance',
      ['conformance', 'http://a.test/x', '--prompt', 'x', '--url', 'http://b.test'],
      /--url is not valid for "conformance" \(the agent URL/,
    ],
    ['a --timeout of 0', ['conformance', 'http://a.test/x', '--prompt', 'x', '--timeout', '0'], /--timeout must be a number of seconds above 0/],
    ['an unknown --reconnect', ['conformance', 'http://a.test/x', '--prompt', 'x', '--reconnect', 'poll'], /--reconnect must be auto, reopen or rejoin/],
    ['a --header without a colon', ['conformance', 'http://a.test/x', '--prompt', 'x', '--header', 'Authorization Bearer k'], /--header must be "Name: value"/],
    [
      'invalid --approve-payload JSON',
      ['conformance', 'http://a.test/x', '--prompt', 'x', '--approve-payload', '{approved: true}'],
      /--approve-payload must be valid JSON/,
    ],
    ['--prompt on a hitl command', ['hitl', 'list', '--prompt', 'x'], /--prompt is not valid for "hitl list"/],
  ];

  it.each(cases)('%s', async (_name, args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/Run 'stackbone .*--help' for usage\./);
    expect(result.stdout).toBe('');
    expect(seen).toHaveLength(0);
  });

  it('reports a usage error as {"error"} on stdout with --json', async () => {
    const result = await run(['hitl', 'approve', 'int_1', '--yes', '--edit', 'nope', '--json']);
    expect(result.code).toBe(2);
    const body = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('usage_error');
    expect(body.error.message).toMatch(/--edit must be valid JSON/);
  });
});

// ---------------------------------------------------------------- list

describe('hitl list', () => {
  it('--json prints the server response and sends the CLI headers', async () => {
    const result = await run(['hitl', 'list', '--json'], { STACKBONE_API_KEY: 'sk-test' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ interrupts: [INTERRUPT, SECOND], nextCursor: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/hitl' });
    expect(seen[0]!.headers['x-stackbone-client']).toBe('cli');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]!.headers['user-agent']).toBe(`stackbone-cli/${VERSION}`);
  });

  it('sends no Authorization header without a key', async () => {
    const result = await run(['hitl', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it('prints a table with id, agent, tool, message, age and expiry', async () => {
    const result = await run(['hitl', 'list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID\s+AGENT\s+TOOL\s+MESSAGE\s+AGE\s+EXPIRES$/);
    expect(lines[1]).toMatch(/^int_0b6e7a52-1\s+support\s+refundOrder\s+Refund order A-17 for 25\s+5m ago\s+in (1h 59m|2h)$/);
    expect(lines[2]).toMatch(/^int_2\s+planner\s+closeTicket\s+Close ticket 9\s+[34]\ds ago\s+never$/);
    expect(result.stdout).toContain('2 pending interrupts');
  });

  it('asks for the filter and the page given, and says how to get the next page when there is one', async () => {
    respond = paged;
    const first = await run(['hitl', 'list', '--filter', 'key-holders']);
    expect(first.code).toBe(0);
    expect(seen[0]!.url).toBe('/api/hitl?filter=key-holders');
    expect(first.stdout).toContain('1 pending interrupt on this page');
    expect(first.stdout).toContain('More on the next page: stackbone hitl list --filter key-holders --cursor c2 (or --all for every page)');

    const second = await run(['hitl', 'list', '--filter=key-holders', '--cursor', 'c2', '--json']);
    expect(seen[1]!.url).toBe('/api/hitl?filter=key-holders&cursor=c2');
    expect(JSON.parse(second.stdout)).toEqual(PAGED.c2);
    const last = await run(['hitl', 'list', '--cursor', 'c3']);
    expect(last.stdout).toContain('Close ticket 10');
    expect(last.stdout).not.toContain('More on the next page');
  });

  it('--all follows every cursor, the largest page at a time, and prints them as one list', async () => {
    respond = paged;
    const table = await run(['hitl', 'list', '--all', '--filter', 'mine']);
    expect(table.code).toBe(0);
    expect(seen.map(queryOf)).toEqual([
      { filter: 'mine', limit: '200' },
      { filter: 'mine', cursor: 'c2', limit: '200' },
      { filter: 'mine', cursor: 'c3', limit: '200' },
    ]);
    expect(table.stdout).toMatch(/int_0b6e7a52-1[\s\S]*int_2[\s\S]*int_3/);
    expect(table.stdout).toContain('3 pending interrupts\n');
    const json = await run(['hitl', 'list', '--all', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ interrupts: [INTERRUPT, SECOND, { ...SECOND, id: 'int_3', message: 'Close ticket 10' }], nextCursor: null });
  });

  it('--all stops at a cursor the server sent before (a list that would never end)', async () => {
    respond = (request) => (request.method === 'GET' ? { json: { interrupts: [INTERRUPT], nextCursor: 'again' } } : undefined);
    const result = await run(['hitl', 'list', '--all', '--json']);
    expect(result.code).toBe(0);
    expect(seen).toHaveLength(2);
  });

  it('says so when nothing is pending', async () => {
    respond = () => ({ json: { interrupts: [] } });
    const result = await run(['hitl', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No pending interrupts.\n');
  });

  it('--url and --api-key override the environment; a base path and trailing slash are kept', async () => {
    respond = (request) => (request.url === '/base/api/hitl' ? { json: { interrupts: [] } } : undefined);
    const result = await run(['hitl', 'list', '--json', '--url', `${baseUrl}/base/`, '--api-key', 'sk-flag'], {
      STACKBONE_URL: 'http://127.0.0.1:9/unused',
      STACKBONE_API_KEY: 'sk-env',
    });
    expect(result.code).toBe(0);
    expect(seen[0]!.url).toBe('/base/api/hitl');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-flag');
  });

  it('exits 1 on 401 with the server code and message on stderr', async () => {
    const error = { error: { code: 'unauthorized', message: 'An API key is required: send Authorization: Bearer <key> or x-api-key.' } };
    respond = () => ({ status: 401, json: error });
    const human = await run(['hitl', 'list']);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('(401 unauthorized): An API key is required');
    expect(human.stdout).toBe('');
    const json = await run(['hitl', 'list', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(error);
  });

  it('exits 1 on a non-JSON 5xx', async () => {
    respond = () => ({ status: 502, text: '<html><body>Bad gateway</body></html>' });
    const result = await run(['hitl', 'list', '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(502 http_502)');
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'http_502', status: 502 } });
  });

  it('exits 1 when a 200 is not JSON (the URL points elsewhere)', async () => {
    respond = () => ({ text: '<html></html>' });
    const result = await run(['hitl', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/bad_response.*without JSON/);
  });

  it('exits 1 with a clear message naming the URL when the server is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = `http://127.0.0.1:${port}`;

    const human = await run(['hitl', 'list'], { STACKBONE_URL: url });
    expect(human.code).toBe(1);
    expect(human.stderr).toContain(`Cannot reach the Stackbone server at ${url} (ECONNREFUSED)`);
    const json = await run(['hitl', 'approve', 'int_1', '--yes', '--json'], { STACKBONE_URL: url });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'unreachable', url } });
  });
});

// ---------------------------------------------------------------- decisions

describe('hitl approve / reject / cancel', () => {
  it('approve --yes --edit --payload --json posts the body and prints the response', async () => {
    const result = await run(['hitl', 'approve', INTERRUPT.id, '--yes', '--edit', '{"orderId":"A-17","amount":10}', '--payload', '{"note":"ok"}', '--json'], {
      STACKBONE_API_KEY: 'sk-test',
    });
    expect(result.code).toBe(0);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request).toMatchObject({ method: 'POST', url: `/api/hitl/${INTERRUPT.id}/approve` });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-stackbone-client']).toBe('cli');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(request!.body)).toEqual({ editedArgs: { orderId: 'A-17', amount: 10 }, payload: { note: 'ok' } });
    expect(JSON.parse(result.stdout)).toEqual(decided('approve', INTERRUPT.id, { editedArgs: { orderId: 'A-17', amount: 10 }, payload: { note: 'ok' } }));
  });

  it('approve --yes sends an empty object and prints one line', async () => {
    const result = await run(['hitl', 'approve', INTERRUPT.id, '-y']);
    expect(result.code).toBe(0);
    expect(JSON.parse(seen[0]!.body)).toEqual({});
    expect(result.stdout).toBe(`Approved refundOrder (interrupt ${INTERRUPT.id}, session ses_1): the run continues (run run_2).\n`);
  });

  it('accepts --edit=<json> and any JSON value', async () => {
    const result = await run(['hitl', 'approve', 'int_1', '--yes', '--edit=[1,2]', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(seen[0]!.body)).toEqual({ editedArgs: [1, 2] });
  });

  it('reject --reason --payload posts them', async () => {
    const result = await run(['hitl', 'reject', 'int_1', '--yes', '--reason', 'Too large, ask a manager', '--payload', '{"note":"x"}']);
    expect(result.code).toBe(0);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/hitl/int_1/reject' });
    expect(JSON.parse(seen[0]!.body)).toEqual({ reason: 'Too large, ask a manager', payload: { note: 'x' } });
    expect(result.stdout).toMatch(/^Rejected refundOrder/);
  });

  it('cancel posts {}', async () => {
    const result = await run(['hitl', 'cancel', 'int_1', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/hitl/int_1/cancel' });
    expect(JSON.parse(seen[0]!.body)).toEqual({});
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: { status: 'cancelled' } });
  });

  it('encodes the id in the path', async () => {
    await run(['hitl', 'cancel', 'a/b?c', '--yes']);
    expect(seen[0]!.url).toBe('/api/hitl/a%2Fb%3Fc/cancel');
  });

  it('says when the batch still waits for other decisions', async () => {
    respond = (request) => (request.method === 'POST' ? { json: { ...decided('approve', 'int_1', {}), continuation: null } } : undefined);
    const result = await run(['hitl', 'approve', 'int_1', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('other decisions of this batch are still pending');
  });

  const refusals: [number, string, string][] = [
    [409, 'interrupt_already_decided', 'Interrupt int_1 was already decided (approved).'],
    [409, 'interrupt_expired', 'Interrupt int_1 expired at 2025-01-01T00:00:00.000Z.'],
    [404, 'not_found', 'No interrupt int_1.'],
    [400, 'edited_args_invalid', 'amount: Expected number, received string'],
    [400, 'edit_not_allowed', 'This tool does not allow edits.'],
  ];

  it.each(refusals)('exits 1 on %i %s, code and message on stderr, body on stdout with --json', async (status, code, message) => {
    const error = { error: { code, message, interruptId: 'int_1' } };
    respond = (request) => (request.method === 'POST' ? { status, json: error } : undefined);
    const human = await run(['hitl', 'approve', 'int_1', '--yes']);
    expect(human.code).toBe(1);
    expect(human.stderr).toBe(`stackbone: the server refused (${status} ${code}): ${message}\n`);
    expect(human.stdout).toBe('');
    const json = await run(['hitl', 'approve', 'int_1', '--yes', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(error);
  });
});

// ---------------------------------------------------------------- session stop

describe('session stop', () => {
  it("--json posts {} to the session's stop URL with the CLI headers and prints the response", async () => {
    const result = await run(['session', 'stop', 'thread_1', '--json'], { STACKBONE_API_KEY: 'sk-test' });
    expect(result.code).toBe(0);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request).toMatchObject({ method: 'POST', url: '/api/v1/sessions/thread_1/stop' });
    expect(JSON.parse(request!.body)).toEqual({});
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-stackbone-client']).toBe('cli');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(result.stdout)).toEqual(stopped('thread_1', {}));
    expect(result.stderr).toBe('');
  });

  it('prints one line when the run was stopped', async () => {
    const result = await run(['session', 'stop', 'thread_1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Stopped run run_live on thread_1.\n');
  });

  it('--run names the run in the body; --run=<id> works too', async () => {
    for (const args of [['--run', 'run_7'], ['--run=run_7']]) {
      seen = [];
      const result = await run(['session', 'stop', 'thread_1', ...args]);
      expect(result.code).toBe(0);
      expect(JSON.parse(seen[0]!.body)).toEqual({ runId: 'run_7' });
      expect(result.stdout).toBe('Stopped run run_7 on thread_1.\n');
    }
  });

  it('encodes the thread id in the path', async () => {
    await run(['session', 'stop', 'a/b?c']);
    expect(seen[0]!.url).toBe('/api/v1/sessions/a%2Fb%3Fc/stop');
  });

  it('exits 0 and says so when nothing is running', async () => {
    const answer = { threadId: 'thread_1', runId: null, stopped: false, reason: 'not_running' };
    respond = () => ({ json: answer });
    const human = await run(['session', 'stop', 'thread_1']);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('Nothing to stop: thread_1 has no run in progress.\n');
    expect(human.stderr).toBe('');
    const json = await run(['session', 'stop', 'thread_1', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(answer);
  });

  it('exits 0 and leaves the other run alone when --run names a run that is not the one in progress', async () => {
    respond = () => ({ json: { threadId: 'thread_1', runId: 'run_old', stopped: false, reason: 'other_run' } });
    const result = await run(['session', 'stop', 'thread_1', '--run', 'run_old']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Nothing to stop: run run_old is not the run in progress on thread_1 (that one was left running).\n');
  });

  const refusals: [number, string, string][] = [
    [404, 'not_found', 'No session "thread_1".'],
    [400, 'invalid_request', 'runId: must be a string.'],
    [401, 'unauthorized', 'The API key is not valid.'],
  ];

  it.each(refusals)('exits 1 on %i %s, code and message on stderr, body on stdout with --json', async (status, code, message) => {
    const error = { error: { code, message } };
    respond = () => ({ status, json: error });
    const human = await run(['session', 'stop', 'thread_1']);
    expect(human.code).toBe(1);
    expect(human.stderr).toBe(`stackbone: the server refused (${status} ${code}): ${message}\n`);
    expect(human.stdout).toBe('');
    const json = await run(['session', 'stop', 'thread_1', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(error);
  });

  it('exits 1 when the server is unreachable', async () => {
    const result = await run(['session', 'stop', 'thread_1', '--json', '--url', 'http://127.0.0.1:9']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'unreachable' } });
  });
});

// The confirmation prompt needs a terminal: util-linux `script` gives the child a pty.
const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('confirmation on a terminal (via script(1))', () => {
  const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  /** Runs the CLI on a pty and types `answer`. */
  function interactive(args: string[], answer: string): Promise<Run> {
    const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
    return new Promise((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, STACKBONE_URL: baseUrl, STACKBONE_API_KEY: '' } });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr: '' }));
      child.stdin.write(answer);
    });
  }

  it('shows the call, asks, and approves on "y"', async () => {
    const result = await interactive(['hitl', 'approve', INTERRUPT.id, '--edit', '{"orderId":"A-17","amount":10}'], 'y\n');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Tool       refundOrder  (call call_1)');
    expect(result.stdout).toContain('Message    Refund order A-17 for 25');
    expect(result.stdout).toContain('Session    ses_1  (agent support)');
    expect(result.stdout).toContain('Approve? [y/N]');
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/hitl?limit=200', `POST /api/hitl/${INTERRUPT.id}/approve`]);
    expect(JSON.parse(seen[1]!.body)).toEqual({ editedArgs: { orderId: 'A-17', amount: 10 } });
  }, 15_000);

  it('finds the call on a later page of the pending list before asking', async () => {
    respond = (request) => (request.method === 'GET' ? paged(request) : undefined);
    const result = await interactive(['hitl', 'cancel', 'int_3'], 'y\n');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Message    Close ticket 10');
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/hitl?limit=200',
      'GET /api/hitl?cursor=c2&limit=200',
      'GET /api/hitl?cursor=c3&limit=200',
      'POST /api/hitl/int_3/cancel',
    ]);
  }, 15_000);

  it('sends nothing and exits 1 on "n"', async () => {
    const result = await interactive(['hitl', 'reject', INTERRUPT.id, '--reason', 'no'], 'n\n');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Reject? [y/N]');
    expect(result.stdout).toContain('Not confirmed; nothing was sent.');
    expect(seen.map((r) => r.method)).toEqual(['GET']);
  }, 15_000);

  it('exits 1 without asking when the id is not pending', async () => {
    const result = await interactive(['hitl', 'cancel', 'int_gone'], '');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('No pending interrupt int_gone');
    expect(seen.map((r) => r.method)).toEqual(['GET']);
  }, 15_000);
});

// ---------------------------------------------------------------- formatting and the prompt

describe('formatting', () => {
  it('formats durations compactly', async () => {
    const { formatDuration } = await importLib<Format>('format.mjs');
    expect([0, 42_000, 5 * 60_000, 3 * 3600_000, 3 * 3600_000 + 20 * 60_000, 50 * 3600_000, 48 * 3600_000].map(formatDuration)).toEqual([
      '0s',
      '42s',
      '5m',
      '3h',
      '3h 20m',
      '2d 2h',
      '2d',
    ]);
  });

  it('shrinks the message column to the width and keeps ids whole', async () => {
    const { formatTable } = await importLib<Format>('format.mjs');
    const long = { ...INTERRUPT, message: `Refund ${'x'.repeat(200)}\nsecond line` };
    const table = formatTable([long], { now: NOW, width: 100 });
    const [header, row] = table.split('\n');
    expect(row!.length).toBeLessThanOrEqual(100);
    expect(row).toContain(INTERRUPT.id);
    expect(row).toContain('…');
    expect(row).not.toContain('second line');
    expect(header!.indexOf(' AGE ') + 1).toBe(row!.indexOf('5m ago'));
    // Never narrower than 20 characters for the message, even on a tiny terminal.
    expect(formatTable([long], { now: NOW, width: 10 }).split('\n')[1]).toContain(`Refund ${'x'.repeat(12)}…`);
  });

  it('shows expired and missing times', async () => {
    const { formatTable } = await importLib<Format>('format.mjs');
    const table = formatTable([{ ...INTERRUPT, expiresAt: new Date(NOW - 1).toISOString(), createdAt: 'garbage' }], { now: NOW });
    expect(table.split('\n')[1]).toMatch(/-\s+expired$/);
  });

  it('shows the call with its arguments, edits and reason', async () => {
    const { formatCall } = await importLib<Format>('format.mjs');
    const text = formatCall(INTERRUPT, { now: NOW, edit: { orderId: 'A-17', amount: 10 }, reason: 'why' });
    expect(text).toBe(
      [
        `Interrupt  ${INTERRUPT.id}`,
        'Session    ses_1  (agent support)',
        'Tool       refundOrder  (call call_1)',
        'Message    Refund order A-17 for 25',
        'Arguments  {',
        '             "orderId": "A-17",',
        '             "amount": 25',
        '           }',
        'Edited to  {',
        '             "orderId": "A-17",',
        '             "amount": 10',
        '           }',
        'Reason     why',
        'Created    5m ago, expires in 2h',
        '',
      ].join('\n'),
    );
  });

  it('describes decisions', async () => {
    const { formatDecision } = await importLib<Format>('format.mjs');
    expect(formatDecision(decided('reject', 'int_1', {}))).toBe('Rejected refundOrder (interrupt int_1, session ses_1): the run continues (run run_2).\n');
    expect(formatDecision({ ...decided('cancel', 'int_1', {}), continuation: null })).toMatch(/^Cancelled refundOrder .*still pending/);
    const vote = { status: 'approved', by: { source: 'hitl', keyName: 'bob' } };
    expect(formatDecision({ ...decided('approve', 'int_1', {}), decision: null, vote, quorum: 2, continuation: null })).toBe(
      'Voted to approve refundOrder (interrupt int_1, session ses_1): it needs 2 distinct approvers; it is decided once they have voted.\n',
    );
  });

  it('describes stops', async () => {
    const { formatStop } = await importLib<Format>('format.mjs');
    expect(formatStop(stopped('t_1', { runId: 'r_1' }))).toBe('Stopped run r_1 on t_1.\n');
    expect(formatStop({ threadId: 't_1', runId: null, stopped: false, reason: 'not_running' })).toBe('Nothing to stop: t_1 has no run in progress.\n');
    expect(formatStop({ threadId: 't_1', runId: 'r_1', stopped: false, reason: 'not_running' })).toBe('Nothing to stop: t_1 has no run in progress.\n');
    expect(formatStop({ threadId: 't_1', runId: 'r_0', stopped: false, reason: 'other_run' })).toMatch(
      /^Nothing to stop: run r_0 is not the run in progress on t_1/,
    );
  });
});

describe('confirm()', () => {
  async function ask(input: string | null) {
    const { confirm } = await importLib<Prompt>('prompt.mjs');
    const stdin = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const answer = confirm('Approve? [y/N] ', { input: stdin, output });
    if (input === null) stdin.end();
    else stdin.write(input);
    return { answer: await answer, shown };
  }

  it('is yes only for y or yes', async () => {
    expect((await ask('y\n')).answer).toBe(true);
    expect((await ask(' YES \n')).answer).toBe(true);
    expect((await ask('\n')).answer).toBe(false);
    expect((await ask('n\n')).answer).toBe(false);
    expect((await ask('yep\n')).answer).toBe(false);
  });

  it('is no on end of input', async () => {
    const { answer, shown } = await ask(null);
    expect(answer).toBe(false);
    expect(shown).toBe('Approve? [y/N] \n');
  });
});

describe('text from the server', () => {
  it('cannot drive the terminal: control characters in what is approved are shown as escapes', async () => {
    // A message that would clear the screen and repaint an innocent line over the real one.
    const hostile = { ...INTERRUPT, message: 'Refund order A-17 for 25\u001b[2K\rRefund order A-17 for 1', args: { orderId: 'A-17\u001b[8m', amount: 25 } };
    respond = (request) => (request.method === 'GET' && request.url === '/api/hitl' ? { json: { interrupts: [hostile] } } : undefined);
    const listed = await run(['hitl', 'list']);
    expect(listed.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(listed.stdout).toContain('\\u001b[2K');
    // What the confirmation prompt shows before asking (on a terminal) goes through the same filter.
    const { formatCall, terminalSafe } = await importLib<{ formatCall: (interrupt: unknown) => string; terminalSafe: (text: string) => string }>('format.mjs');
    const shown = terminalSafe(formatCall(hostile));
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(shown).toContain('Refund order A-17 for 25\\u001b[2K\\u000dRefund order A-17 for 1');
    // --json stays valid JSON, the control characters escaped in it.
    const json = await run(['hitl', 'list', '--json']);
    expect((JSON.parse(json.stdout) as { interrupts: { message: string }[] }).interrupts[0]!.message).toBe(hostile.message);
  });
});

// ---------------------------------------------------------------- export and replay (docs/replay.md)

const DECISION_LINES = '{"session":"s1","toolName":"refundOrder","status":"approved"}\n{"session":"s1","toolName":"closeTicket","status":"denied"}\n';
const NO_DIFF = {
  calls: { added: [], removed: [], changed: [] },
  approvals: { newlyNeeded: [], noLongerNeeded: [] },
  decisions: { unused: [], unrecorded: [], notApplied: [] },
  answers: [],
  finalAnswer: null,
};
const REPORT = { session: 's1', recordedAgent: 'support', agent: 'support', deterministic: true, turns: 2, identical: true, ...NO_DIFF };
const STRICTER = {
  ...REPORT,
  agent: 'support-strict',
  identical: false,
  approvals: { newlyNeeded: [{ toolName: 'lookupOrder', input: { orderId: 'ord_42' } }], noLongerNeeded: [] },
  decisions: { unused: [], unrecorded: [{ toolName: 'lookupOrder', input: { orderId: 'ord_42' }, reason: 'tool_call' }], notApplied: [] },
};

describe('export and replay', () => {
  it('export --decisions prints the JSONL as served, and --json one {"decisions"} document', async () => {
    respond = (request) => (request.url === '/api/hitl/decisions' ? { lines: DECISION_LINES } : undefined);
    const lines = await run(['export', '--decisions']);
    expect(lines).toMatchObject({ code: 0, stdout: DECISION_LINES });
    const json = await run(['export', '--decisions', '--json']);
    expect(JSON.parse(json.stdout).decisions.map((line: { toolName: string }) => line.toolName)).toEqual(['refundOrder', 'closeTicket']);
  });

  it("export --session <key> asks for that session's recording; export needs exactly one of --decisions and --session (exit 2)", async () => {
    respond = (request) => (request.url === '/api/v1/sessions/a%2Fb/recording' ? { lines: '{"stackboneRecording":1}\n' } : undefined);
    expect(await run(['export', '--session', 'a/b'])).toMatchObject({ code: 0, stdout: '{"stackboneRecording":1}\n' });
    expect((await run(['export'])).code).toBe(2);
    expect((await run(['export', '--decisions', '--session', 'x'])).code).toBe(2);
    expect((await run(['export', '--decisions', '--against', 'x'])).code).toBe(2);
  });

  it('replay exits 0 when identical and 1 when different, naming each difference; --against goes in the body', async () => {
    respond = (request) =>
      request.url === '/api/v1/sessions/s1/replay' ? { json: (JSON.parse(request.body) as { against?: string }).against ? STRICTER : REPORT } : undefined;
    const same = await run(['replay', 's1']);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('Identical: the same calls, approvals, decisions and final answer.');
    expect(JSON.parse(seen[0]!.body)).toEqual({});

    const stricter = await run(['replay', 's1', '--against', 'support-strict']);
    expect(stricter.code).toBe(1);
    expect(JSON.parse(seen[1]!.body)).toEqual({ against: 'support-strict' });
    expect(stricter.stdout).toContain('newly needs approval    lookupOrder {"orderId":"ord_42"}');
    expect(stricter.stdout).toContain('no recorded decision    lookupOrder {"orderId":"ord_42"}: denied in the replay');
    expect(JSON.parse((await run(['replay', 's1', '--against', 'support-strict', '--json'])).stdout)).toEqual(STRICTER);
  });

  it('replay says when the model is not the scripted one, and needs one session (exit 2)', async () => {
    respond = (request) => (request.url === '/api/v1/sessions/s1/replay' ? { json: { ...REPORT, deterministic: false } } : undefined);
    expect((await run(['replay', 's1'])).stdout).toContain('real model');
    expect((await run(['replay'])).code).toBe(2);
    expect((await run(['replay', 's1', 's2'])).code).toBe(2);
    expect((await run(['replay', 's1', '--yes'])).code).toBe(2);
  });
});
