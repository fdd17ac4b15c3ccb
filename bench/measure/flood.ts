// Item 10: the public chat under a flood (docs/security.md, "The open web"). A keyed server open to
// browsers is flooded from ONE address the way the security review attacked it, all at once: page
// loads past the address's new identities, session streams past its streams, slow turns past its
// running turns, wrong keys past its failed sign-ins. Meanwhile /api/health is asked every 25 ms
// from another address. Measured: what each attack was let through (the documented limit, no more),
// health latency during the flood, and the server's RSS before, at its peak, and once each flood
// ended and settled, with its live heap then (after a full collection, bench/lib/live-heap.mjs): a
// limit that leaked would show as memory that grows with every flood.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postRun, userMessage } from '../../tests/support/agui';
import { eventually } from '../../tests/support/inspect';
import { startServer, type TestServer } from '../../tests/support/server';
import { processMemory, serverMemory, type BenchDatabase } from '../lib/servers';
import { round, summarize } from '../lib/stats';

type Admitted = { identities: number; streams: number; runs: number; wrongKeys: number };

export interface Flood {
  /** What each attack was let through, and the limit docs/security.md gives for it. */
  admitted: Admitted;
  /** The same, let through to each later flood, each from another address. */
  again: Admitted[];
  limits: Admitted;
  health: { samples: number; p50Ms: number; p99Ms: number; maxMs: number; failures: number };
  /**
   * Before the floods, at their peak, 3 s after each; and the last flood's growth over the one
   * before. `liveAfterEachMB`: the heap still live (V8's and external) once each has settled,
   * after a full collection — what a leak grows, where RSS also grows with a heap V8 keeps.
   */
  rss: {
    beforeMB: number;
    peakMB: number;
    afterEachMB: number[];
    lastFloodGrowthPercent: number;
    liveAfterEachMB: number[];
    lastFloodLiveGrowthPercent: number;
  };
  seconds: number;
}

// Ports 3331+ (3306 is MySQL's, often taken; bench/lib/servers.ts has the others).
const PORTS = { sqlite: 3331, postgres: 3332 } as const;
const KEY = 'bench-flood-key-0123456789abcdef';
/**
 * Five floods, each from an address of its own. V8 grows its heap into a working size over the
 * first floods and keeps it (RSS over six floods on this machine: +20 %, +15 %, +13 %, then
 * +1.5 %, +0.1 %, +0.1 %), so the last two tell a leak — which grows RSS with every flood — from that.
 */
const ATTACKERS = ['198.51.100.7', '198.51.100.8', '198.51.100.9', '198.51.100.10', '198.51.100.11'];
const LIMITS = { identities: 20, streams: 64, runs: 32, wrongKeys: 10 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const LIVE_HEAP_PRELOAD = fileURLToPath(new URL('../lib/live-heap.mjs', import.meta.url));

/** The server's live heap in MB, after a full collection it is asked to make (bench/lib/live-heap.mjs). */
async function liveHeapMB(pid: number, dir: string): Promise<number> {
  const file = path.join(dir, `${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const written = await eventually(
    async () => existsSync(file) && readFileSync(file, 'utf8'),
    5_000,
    `the live heap of the flood's server (pid ${pid}; is bench/lib/live-heap.mjs preloaded?)`,
  );
  const { heapUsed, external } = JSON.parse(written) as { heapUsed: number; external: number };
  return (heapUsed + external) / 1048576;
}

export async function measureFlood(database: BenchDatabase): Promise<Flood> {
  const heapDir = mkdtempSync(path.join(os.tmpdir(), 'stackbone-flood-heap-'));
  const server = await startServer({
    port: PORTS[database.kind],
    databaseUrl: database.url,
    env: {
      STACKBONE_BENCH: '1',
      STACKBONE_API_KEYS: KEY,
      STACKBONE_SECRET: `bench-flood-secret-${'x'.repeat(32)}`,
      STACKBONE_WEB_ACCESS: 'open',
      NODE_OPTIONS: [process.env.NODE_OPTIONS, '--expose-gc', `--import=${LIVE_HEAP_PRELOAD}`].filter(Boolean).join(' '),
      BENCH_LIVE_HEAP_DIR: heapDir,
    },
  });
  try {
    return await flood(server, heapDir);
  } finally {
    await server.kill();
    rmSync(heapDir, { recursive: true, force: true });
  }
}

async function flood(server: TestServer, heapDir: string): Promise<Flood> {
  const from = (address: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': address, origin: server.url, ...extra });
  const pageLoad = async (address: string) => {
    const response = await fetch(`${server.url}/`, { headers: from(address) });
    await response.arrayBuffer();
    return (response.headers.get('set-cookie') ?? '').split(';')[0] || null;
  };

  // Warm-up from an honest address: the pages and a turn compiled and cached, then RSS at rest.
  const honest = (await pageLoad('198.51.100.200'))!;
  for (let i = 0; i < 5; i++) {
    await postRun(
      server.url,
      'helpdesk',
      { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hello')] },
      from('198.51.100.200', { cookie: honest }),
    );
  }
  await sleep(1000);
  // The process that serves, found once: the sampler reads its RSS alone, not the whole process table at every ask.
  const serving = serverMemory(server.pid);
  const beforeMB = serving.rssMB;
  let peakMB = beforeMB;
  const started = performance.now();

  // Health is asked while an attack is on, not while the server settles between the two.
  let flooding = false;
  let done = false;
  const latencies: number[] = [];
  let failures = 0;
  const sampler = (async () => {
    while (!done) {
      if (!flooding) {
        await sleep(25);
        continue;
      }
      const asked = performance.now();
      try {
        const response = await fetch(`${server.url}/api/health`);
        await response.arrayBuffer();
        if (!response.ok) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - asked);
      peakMB = Math.max(peakMB, processMemory(serving.pid)?.rssMB ?? 0);
      await sleep(25);
    }
  })();

  /** One flood from `address`, all its attacks; what each let through. */
  const attack = async (address: string): Promise<Admitted> => {
    flooding = true;
    // Identities: 40 page loads at once; each cookie given is an identity the other attacks use.
    const cookies = (await Promise.all(Array.from({ length: 40 }, () => pageLoad(address)))).filter((cookie): cookie is string => cookie !== null);
    // Each open stream with its Response: a Response no one holds is collected, and fetch then
    // cancels its unread body — the client closing the stream, which gives the place back and
    // would let a later stream past the limit as if the server had leaked it.
    const streams: { controller: AbortController; response: Response }[] = [];
    const owners = await Promise.all(
      cookies.slice(0, 4).map(async (cookie) => {
        const threadId = randomUUID();
        await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('hello')] }, from(address, { cookie }));
        return { cookie, threadId };
      }),
    );
    const openStream = async (owner: { cookie: string; threadId: string }) => {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/api/agents/helpdesk?threadId=${owner.threadId}&offset=-1`, {
        headers: from(address, { cookie: owner.cookie, accept: 'text/event-stream' }),
        signal: controller.signal,
      });
      if (response.status === 200) streams.push({ controller, response });
      else await response.arrayBuffer();
      return response.status === 200;
    };
    const slowTurn = async (cookie: string) => {
      const response = await fetch(`${server.url}/api/agents/helpdesk`, {
        method: 'POST',
        headers: from(address, { cookie, 'content-type': 'application/json', accept: 'text/event-stream' }),
        body: JSON.stringify({ threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('slowly reply with 60 tokens')] }),
      });
      const body = await response.text();
      return response.status === 200 && !body.includes('too_many_');
    };
    const wrongKey = async (i: number) => {
      const response = await fetch(`${server.url}/api/hitl`, { headers: from(address, { authorization: `Bearer wrong-key-${i}-0123456789abcdef` }) });
      await response.arrayBuffer();
      return response.status === 401;
    };

    // Turns and wrong keys together, then streams: a turn's answer is a stream too, so the address's
    // streams would cap its turns were both asked at once, and each limit is measured alone.
    const [runsServed, keysTried] = await Promise.all([
      Promise.all(Array.from({ length: 48 }, (_, i) => slowTurn(cookies[4 + (i % (cookies.length - 4))]!))),
      Promise.all(Array.from({ length: 16 }, (_, i) => wrongKey(i))),
    ]);
    const streamsOpened = await Promise.all(Array.from({ length: 80 }, (_, i) => openStream(owners[i % owners.length]!)));
    await sleep(2000);
    for (const stream of streams) stream.controller.abort();
    flooding = false;
    return {
      identities: cookies.length,
      streams: streamsOpened.filter(Boolean).length,
      runs: runsServed.filter(Boolean).length,
      // A wrong key is answered 401 until the address is held back (429).
      wrongKeys: keysTried.filter(Boolean).length,
    };
  };
  const afterEachMB: number[] = [];
  const liveAfterEachMB: number[] = [];
  /** RSS once the flood has settled, then the live heap (the collection it takes comes after the RSS is read). */
  const settled = async () => {
    await sleep(3000);
    afterEachMB.push(processMemory(serving.pid)?.rssMB ?? serverMemory(server.pid).rssMB);
    liveAfterEachMB.push(await liveHeapMB(serving.pid, heapDir));
  };

  const admitted = await attack(ATTACKERS[0]!);
  await settled();
  const again: Admitted[] = [];
  for (const address of ATTACKERS.slice(1)) {
    again.push(await attack(address));
    await settled();
  }
  done = true;
  await sampler;
  const seconds = (performance.now() - started) / 1000;
  const growth = (series: number[]) => {
    const [oneBefore, last] = series.slice(-2) as [number, number];
    return round(((last - oneBefore) / oneBefore) * 100, 1);
  };
  const health = summarize(latencies);
  return {
    admitted,
    again,
    limits: LIMITS,
    health: { samples: health.n, p50Ms: health.p50, p99Ms: health.p99, maxMs: health.max, failures },
    rss: {
      beforeMB: round(beforeMB, 1),
      peakMB: round(peakMB, 1),
      afterEachMB: afterEachMB.map((mb) => round(mb, 1)),
      lastFloodGrowthPercent: growth(afterEachMB),
      liveAfterEachMB: liveAfterEachMB.map((mb) => round(mb, 1)),
      lastFloodLiveGrowthPercent: growth(liveAfterEachMB),
    },
    seconds: round(seconds, 1),
  };
}
