// `npm start`'s admission per address (scripts/http-admission.mjs, docs/security.md, "Requests from
// one address"): a Node server started with the preload as `npm start` starts `next start`, whose
// handler notes when each request starts and how many of its address's were starting then.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asyncContextFrameFlag } from './lib/start-command';

const preload = fileURLToPath(new URL('./http-admission.mjs', import.meta.url));

// The server: /work?ms=N answers after N ms; /stream begins its answer at once and stays open;
// /page?ms=N begins its answer at once and ends it after N ms;
// /log (from this machine, not counted) lists the requests started so far.
const SERVER = `
import http from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
const started = [];
// What a tracer (OpenTelemetry's http instrumentation) does: each request's events in a context of its own.
const trace = new AsyncLocalStorage();
const active = new Map();
const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://x');
  if (url.pathname === '/log') return response.end(JSON.stringify(started));
  const address = request.headers['x-forwarded-for'] ?? 'local';
  active.set(address, (active.get(address) ?? 0) + 1);
  started.push({ id: url.searchParams.get('id'), address, at: performance.now(), alongside: active.get(address), context: trace.getStore() });
  const done = () => active.set(address, active.get(address) - 1);
  if (url.pathname === '/stream') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: first\\n\\n');
    response.on('close', done);
    return;
  }
  if (url.pathname === '/page') {
    // A page streamed as it renders: its headers and first part at once, the rest after ms.
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write('<p>first</p>');
    setTimeout(() => { done(); response.end('<p>rest</p>'); }, Number(url.searchParams.get('ms') ?? 0));
    return;
  }
  setTimeout(() => { done(); response.end('done'); }, Number(url.searchParams.get('ms') ?? 0));
});
const emit = server.emit;
server.emit = function (event, request, ...rest) {
  if (event !== 'request') return emit.call(this, event, request, ...rest);
  return trace.run(new URL(request.url, 'http://x').searchParams.get('id'), () => emit.call(this, event, request, ...rest));
};
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
`;

interface Started {
  id: string;
  address: string;
  at: number;
  alongside: number;
  context?: string;
}

let server: ChildProcess;
let base = '';

beforeAll(async () => {
  // With Node's flags as `npm start` has them: the contexts kept below are async context frames on Node 22.
  server = spawn(process.execPath, [...asyncContextFrameFlag(process.versions.node), '--import', preload, '--input-type=module', '-e', SERVER], {
    env: { ...process.env, STACKBONE_REQUESTS_WAITING_PER_ADDRESS: '3' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(server.stdout!, 'data')) as [Buffer];
  base = `http://127.0.0.1:${/PORT (\d+)/.exec(line.toString())![1]}`;
});

afterAll(() => {
  server.kill();
});

const from = (address: string) => ({ 'x-forwarded-for': address });

async function ask(path: string, address?: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${base}${path}`, { headers: address ? from(address) : {}, signal });
}

async function log(): Promise<Started[]> {
  return (await (await fetch(`${base}/log`)).json()) as Started[];
}

const startOf = (entries: Started[], id: string) => entries.find((entry) => entry.id === id);

describe("npm start's admission per address", () => {
  it('starts one address’s burst one at a time, in the order it came', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map((i) => ask(`/work?ms=60&id=burst-${i}`, '203.0.113.1')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const burst = (await log()).filter((entry) => entry.id?.startsWith('burst-'));
    expect(burst.map((entry) => entry.id)).toEqual(['burst-1', 'burst-2', 'burst-3', 'burst-4']);
    expect(burst.every((entry) => entry.alongside === 1)).toBe(true);
    for (let i = 1; i < burst.length; i++) expect(burst[i]!.at - burst[i - 1]!.at).toBeGreaterThanOrEqual(55);
    // Each started in its own request's context (a trace's parent), not the one whose end let it in.
    expect(burst.map((entry) => entry.context)).toEqual(burst.map((entry) => entry.id));
  });

  it('starts another address’s request at once, ahead of the burst still waiting', async () => {
    const burst = [1, 2, 3].map((i) => ask(`/work?ms=150&id=long-${i}`, '203.0.113.2'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const other = await ask('/work?ms=0&id=other', '198.51.100.9');
    expect(other.status).toBe(200);
    await Promise.all(burst);
    const entries = await log();
    expect(startOf(entries, 'other')!.at).toBeLessThan(startOf(entries, 'long-2')!.at);
  });

  it('frees the place once a stream’s headers are out: a stream held open does not hold its address', async () => {
    const controller = new AbortController();
    const stream = await ask('/stream?id=stream', '203.0.113.3', controller.signal);
    expect(stream.status).toBe(200);
    const next = await ask('/work?ms=0&id=after-stream', '203.0.113.3');
    expect(next.status).toBe(200);
    // Started while the stream was still open beside it.
    expect(startOf(await log(), 'after-stream')!.alongside).toBe(2);
    controller.abort();
  });

  it('holds the place of an answer that is not a stream until it ends: a page rendered in parts renders alone', async () => {
    const pages = await Promise.all([1, 2].map((i) => ask(`/page?ms=60&id=page-${i}`, '203.0.113.6')));
    await Promise.all(pages.map((page) => page.text()));
    const entries = await log();
    expect(startOf(entries, 'page-2')!.alongside).toBe(1);
    expect(startOf(entries, 'page-2')!.at - startOf(entries, 'page-1')!.at).toBeGreaterThanOrEqual(55);
  });

  it('frees the place after 100 ms of no answer (a request waiting on something else)', async () => {
    const slow = ask('/work?ms=1500&id=quiet', '203.0.113.4');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    const next = await ask('/work?ms=0&id=after-quiet', '203.0.113.4');
    expect(next.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    await slow;
  });

  it('answers 429 too_many_address_requests past the requests an address may have waiting, and serves the rest', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => ask(`/work?ms=50&id=full-${i}`, '203.0.113.5')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429]);
    const refused = answers[4]!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_address_requests');
    expect(startOf(await log(), 'full-5')).toBeUndefined();
  });

  it('never starts a request whose client hung up while it waited', async () => {
    const first = ask('/work?ms=150&id=before-hangup', '203.0.113.6');
    const controller = new AbortController();
    const gone = ask('/work?ms=0&id=hung-up', '203.0.113.6', controller.signal).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    await gone;
    const last = await ask('/work?ms=0&id=after-hangup', '203.0.113.6');
    await first;
    expect(last.status).toBe(200);
    const entries = await log();
    expect(startOf(entries, 'hung-up')).toBeUndefined();
    expect(startOf(entries, 'after-hangup')).toBeDefined();
  });

  it('does not count this machine’s own requests that name no other address', async () => {
    await Promise.all([1, 2, 3, 4].map((i) => ask(`/work?ms=60&id=local-${i}`)));
    const local = (await log()).filter((entry) => entry.id?.startsWith('local-'));
    expect(Math.max(...local.map((entry) => entry.alongside))).toBe(4);
  });
});
