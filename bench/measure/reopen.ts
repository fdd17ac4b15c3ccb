// Item 3: reopening a 1,000-message thread. The thread is written in process, straight into the
// server's database (500 turns), so the server has never seen it: its first read is cold (no
// warm view, docs/internals/architecture.md "One log, one fold"). Then, alternating: the bare Prisma read
// of the thread's rows over the bench route, the MESSAGES_SNAPSHOT of the thread's last run
// replayed from the log (`GET ?runId&threadId&offset=-1`), and the hydration JSON.
import { randomUUID } from 'node:crypto';
import { findAgent } from '../../server/agents';
import { LOCAL_OWNER } from '../../server/identity/owner';
import { PAGE_MESSAGES, startRun, scopedSessionId } from '../../server/runtime';
import { createPrismaStore } from '../../server/store/prisma-store';
import { hydrate, pingServer } from '../lib/agui-client';
import { counts } from '../lib/mode';
import type { BenchDatabase } from '../lib/servers';
import { agUiType, readSse } from '../lib/sse';
import { median, round } from '../lib/stats';

export interface Reopen {
  messages: number;
  logRows: number;
  reads: number;
  /** Medians in ms over `reads` alternating reads each. */
  bareReadMs: number;
  snapshotMs: number;
  hydrationMs: number;
  /** snapshot / bare read */
  ratio: number;
  hydrationRatio: number;
  /** The first read of all, before the server had folded the thread: one sample. */
  cold: { snapshotMs: number; ratio: number };
}

/** Writes a thread of `messages` messages (a user message and a reply per turn); returns its last run. */
async function writeThread(database: BenchDatabase, threadId: string, messages: number): Promise<string> {
  const store = createPrismaStore(database.url);
  const agent = findAgent('helpdesk')!;
  let runId = '';
  try {
    for (let turn = 0; turn < messages / 2; turn++) {
      runId = randomUUID();
      const run = await startRun({
        agent,
        store,
        sessionId: scopedSessionId(LOCAL_OWNER, threadId),
        ownerId: LOCAL_OWNER,
        runId,
        source: 'agui',
        messages: [{ id: randomUUID(), role: 'user', content: 'reply with 5 tokens' }],
      });
      for await (const part of run.parts) void part;
      await run.done;
    }
  } finally {
    await store.close();
  }
  return runId;
}

async function bareRead(baseUrl: string, threadId: string): Promise<{ ms: number; rows: number }> {
  const sent = performance.now();
  const response = await fetch(`${baseUrl}/api/bench/bare?threadId=${encodeURIComponent(threadId)}`);
  const rows = (await response.json()) as unknown[];
  return { ms: performance.now() - sent, rows: rows.length };
}

async function snapshot(baseUrl: string, threadId: string, runId: string): Promise<{ ms: number; messages: number }> {
  const sent = performance.now();
  const response = await fetch(`${baseUrl}/api/agents/helpdesk?${new URLSearchParams({ threadId, runId, offset: '-1' })}`, {
    headers: { accept: 'text/event-stream' },
  });
  let messages = -1;
  const at = await readSse(response, ({ data }) => {
    if (agUiType(data) !== 'MESSAGES_SNAPSHOT') return false;
    messages = (JSON.parse(data) as { messages: unknown[] }).messages.length;
    return true;
  });
  if (messages < 0) throw new Error(`The replay of run ${runId} had no MESSAGES_SNAPSHOT.`);
  return { ms: at - sent, messages };
}

async function hydration(baseUrl: string, threadId: string): Promise<{ ms: number; messages: number }> {
  const sent = performance.now();
  const body = await hydrate(baseUrl, threadId);
  return { ms: performance.now() - sent, messages: body.messages.length };
}

export async function measureReopen(baseUrl: string, database: BenchDatabase): Promise<Reopen> {
  const threadId = randomUUID();
  const lastRunId = await writeThread(database, threadId, counts.reopenMessages);
  await pingServer(baseUrl);
  const cold = await snapshot(baseUrl, threadId, lastRunId);
  const samples = { bare: [] as number[], snapshot: [] as number[], hydration: [] as number[] };
  let logRows = 0;
  let messages = 0;
  for (let i = 0; i < counts.reopenReads; i++) {
    const bare = await bareRead(baseUrl, threadId);
    const snap = await snapshot(baseUrl, threadId, lastRunId);
    const hydrated = await hydration(baseUrl, threadId);
    samples.bare.push(bare.ms);
    samples.snapshot.push(snap.ms);
    samples.hydration.push(hydrated.ms);
    logRows = bare.rows;
    messages = hydrated.messages;
  }
  // The hydration JSON is the thread's last page of messages (docs/internals/architecture.md, "Streams and cursors").
  const page = Math.min(counts.reopenMessages, PAGE_MESSAGES);
  if (messages !== page) throw new Error(`The hydration holds ${messages} messages, not its last page's ${page}.`);
  const bareMs = median(samples.bare);
  return {
    messages,
    logRows,
    reads: counts.reopenReads,
    bareReadMs: round(bareMs),
    snapshotMs: round(median(samples.snapshot)),
    hydrationMs: round(median(samples.hydration)),
    ratio: round(median(samples.snapshot) / bareMs),
    hydrationRatio: round(median(samples.hydration) / bareMs),
    cold: { snapshotMs: round(cold.ms), ratio: round(cold.ms / bareMs) },
  };
}
