// Item 9: scaling out on PostgreSQL (docs/scaling.md). N `next start` instances of the same build
// on one database, behind a round-robin balancer (tests/support/round-robin.ts), once with 1 instance
// and once with 4. Each session pauses a refund for approval through the balancer, follows its
// session stream on the instance that served that run, and has the refund approved through
// /api/hitl on another instance (the next one round); the continuation must reach the stream. A
// window of clients keeps that many sessions in flight at once. Afterwards the log is read straight
// from the database: every session must hold exactly one approval, one start of the refund and
// one result, and each session one refund made.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { parsePostgresUrl } from '../../server/store/prisma-client';
import type { TestServer } from '../../tests/support/server';
import { runInput } from '../lib/agui-client';
import { counts } from '../lib/mode';
import { startRoundRobin } from '../../tests/support/round-robin';
import { freshDatabase, startBenchServer } from '../lib/servers';
import { agUiType, readSse } from '../lib/sse';
import { round, summarize, type Summary } from '../lib/stats';
import { withTimeout } from './approval';

export interface ScaleOutRun {
  instances: number;
  sessions: number;
  /** Sessions in flight at once. */
  window: number;
  /** Sessions that failed anywhere (a refusal, a broken stream, no continuation), with samples. */
  errors: number;
  errorSamples: string[];
  /** Sessions whose log broke exactly-once (see below), with samples. */
  exactlyOnceViolations: number;
  violationSamples: string[];
  /** Sending the run through the balancer → its first SSE event. */
  firstEvent: Summary;
  /** Sending the approval to the other instance → the tool's result on the first one's stream. */
  decisionToResult: Summary;
  /** Two turns per session (the paused one and the continuation) over the wall time. */
  turnsPerSecond: number;
  wallMs: number;
  /** What the database saw (pg_stat_database, pg_stat_activity, table sizes): the per-turn costs of docs/scaling.md. */
  database: DatabaseCosts;
}

interface DatabaseCosts {
  /** Committed transactions (every statement outside one counts) per turn, reads included. */
  transactionsPerTurn: number;
  /** Connections to the database at the busiest sample, per instance (each pool, its LISTEN and the app's tables). */
  connectionsPerInstance: number;
  /** Before any traffic: transactions per second per instance (the recovery sweep, timers, the outbox). */
  idleTransactionsPerSecondPerInstance: number;
  /** Bytes of the Event table (rows and indexes) per turn. */
  logBytesPerTurn: number;
  logRowsPerTurn: number;
}

export interface ScaleOut {
  one: ScaleOutRun;
  four: ScaleOutRun;
  /** four / one. */
  firstEventP99Ratio: number;
  turnsPerSecondRatio: number;
}

interface SessionTiming {
  firstEventMs: number;
  decisionToResultMs: number;
}

async function oneSession(balancer: string, instances: TestServer[]): Promise<SessionTiming> {
  const threadId = randomUUID();
  const sent = performance.now();
  const response = await fetch(`${balancer}/api/agents/helpdesk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(runInput(threadId, 'refund order po_42 for 19.99')),
  });
  const served = Number(response.headers.get('x-instance'));
  if (!response.ok || !instances[served])
    throw new Error(`the run answered ${response.status} from instance ${served}: ${(await response.text()).slice(0, 200)}`);
  let firstEventMs: number | undefined;
  let interruptId: string | undefined;
  await readSse(response, ({ data, at }) => {
    firstEventMs ??= at - sent;
    if (agUiType(data) === 'RUN_ERROR') throw new Error(`RUN_ERROR ${data.slice(0, 200)}`);
    if (agUiType(data) === 'RUN_FINISHED') interruptId = (JSON.parse(data) as { outcome?: { interrupts?: { id: string }[] } }).outcome?.interrupts?.[0]?.id;
  });
  if (!interruptId) throw new Error('the refund did not pause for approval');

  // Follow the session on the instance that streamed the run…
  const streaming = instances[served]!.url;
  const hydration = await fetch(`${streaming}/api/agents/helpdesk?threadId=${threadId}`, { headers: { accept: 'application/json' } });
  if (!hydration.ok) throw new Error(`hydrating answered ${hydration.status}`);
  const { cursor } = (await hydration.json()) as { cursor: string };
  const abort = new AbortController();
  try {
    const stream = await fetch(`${streaming}/api/agents/helpdesk?${new URLSearchParams({ threadId, offset: cursor })}`, {
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    });
    if (!stream.ok) throw new Error(`the session stream answered ${stream.status}`);
    const result = readSse(stream, ({ data }) => agUiType(data) === 'TOOL_CALL_RESULT');
    result.catch(() => undefined);
    // …and decide on another one.
    const deciding = instances[(served + 1) % instances.length]!.url;
    const decided = performance.now();
    const approval = await fetch(`${deciding}/api/hitl/${encodeURIComponent(interruptId)}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (!approval.ok) throw new Error(`approving answered ${approval.status}: ${(await approval.text()).slice(0, 200)}`);
    await approval.arrayBuffer();
    const at = await withTimeout(result, 30_000, 'the approved refund on the session stream of the other instance');
    return { firstEventMs: firstEventMs!, decisionToResultMs: at - decided };
  } finally {
    abort.abort();
  }
}

/** A connection for reading the database's own statistics (not through any instance). */
async function statsClient(databaseUrl: string): Promise<{ client: pg.Client; schema: string; database: string }> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString });
  await client.connect();
  const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
  return { client, schema: schema ?? 'public', database: rows[0]!.db };
}

async function committed(stats: { client: pg.Client; database: string }): Promise<number> {
  const { rows } = await stats.client.query<{ n: string }>('SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1', [stats.database]);
  return Number(rows[0]!.n);
}

async function connections(stats: { client: pg.Client; database: string }): Promise<number> {
  const { rows } = await stats.client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
    stats.database,
  ]);
  return Number(rows[0]!.n);
}

/** Per session, what must have happened exactly once; the sessions where it did not. */
async function exactlyOnceViolations(databaseUrl: string, sessions: number): Promise<string[]> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    const { rows } = await client.query<{ sessionId: string; started: string; results: string; decided: string; attempts: string }>(`
      SELECT "sessionId",
             count(*) FILTER (WHERE type = 'tool_started') AS started,
             count(*) FILTER (WHERE type = 'tool_result') AS results,
             count(*) FILTER (WHERE type = 'interrupt_decided') AS decided,
             max(CASE WHEN type = 'tool_started' THEN (data::jsonb ->> 'attempt')::int END) AS attempts
        FROM "Event" GROUP BY "sessionId"`);
    const violations = rows
      .filter((row) => Number(row.started) !== 1 || Number(row.results) !== 1 || Number(row.decided) !== 1 || Number(row.attempts) !== 1)
      .map((row) => `${row.sessionId}: ${row.started} starts (attempt ${row.attempts}), ${row.results} results, ${row.decided} decisions`);
    if (rows.length !== sessions) violations.push(`${rows.length} sessions in the log, not ${sessions}`);
    // Each approval's refund ran, and said so: the helpdesk's result (tests/fixtures/agents/helpdesk.ts).
    const refunds = await client.query<{ count: string }>(`SELECT count(*) FROM "Event" WHERE type = 'tool_result' AND data LIKE '%Refunded%'`);
    if (Number(refunds.rows[0]!.count) !== sessions) violations.push(`${refunds.rows[0]!.count} refunds made for ${sessions} approvals`);
    return violations;
  } finally {
    await client.end();
  }
}

async function scaleOutRun(instanceCount: number): Promise<ScaleOutRun> {
  const database = await freshDatabase('postgres', `stackbone_bench_scale${instanceCount}`);
  const instances = await Promise.all(Array.from({ length: instanceCount }, (_, i) => startBenchServer(database, 3311 + i)));
  const balancer = await startRoundRobin(instances.map((instance) => instance.url));
  const stats = await statsClient(database.url);
  try {
    const timings: SessionTiming[] = [];
    const errors: string[] = [];
    let next = 0;
    const client = async () => {
      while (next < counts.scaleSessions) {
        next++;
        try {
          timings.push(await oneSession(balancer.url, instances));
        } catch (error) {
          errors.push(error instanceof Error ? error.message : String(error));
        }
      }
    };
    // pg_stat_database is updated as backends report, at the latest every second or so: settle first.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));
    // Before any traffic: what the instances ask of the database by themselves (the recovery
    // sweep, the timer and outbox loops). After traffic the outbox's deliveries would be in it.
    await settle();
    const idleFrom = await committed(stats);
    await new Promise((resolve) => setTimeout(resolve, counts.scaleIdleSeconds * 1_000));
    const committedIdle = (await committed(stats)) - idleFrom;
    const committedBefore = await committed(stats);
    let busiest = 0;
    const sampling = setInterval(
      () =>
        void connections(stats).then(
          (n) => (busiest = Math.max(busiest, n)),
          () => undefined,
        ),
      250,
    );
    const started = performance.now();
    await Promise.all(Array.from({ length: counts.scaleWindow }, client));
    const wallMs = performance.now() - started;
    clearInterval(sampling);
    await settle();
    const committedAfter = await committed(stats);
    const turns = 2 * timings.length;
    const { rows: sizes } = await stats.client.query<{ bytes: string; rows: string }>(
      `SELECT pg_total_relation_size(format('%I."Event"', $1::text)) AS bytes, (SELECT count(*) FROM "${stats.schema}"."Event") AS rows`,
      [stats.schema],
    );
    const violations = await exactlyOnceViolations(database.url, counts.scaleSessions);
    return {
      instances: instanceCount,
      sessions: counts.scaleSessions,
      window: counts.scaleWindow,
      errors: errors.length,
      errorSamples: errors.slice(0, 3),
      exactlyOnceViolations: violations.length,
      violationSamples: violations.slice(0, 3),
      firstEvent: summarize(timings.map((t) => t.firstEventMs)),
      decisionToResult: summarize(timings.map((t) => t.decisionToResultMs)),
      turnsPerSecond: round(turns / (wallMs / 1000), 1),
      wallMs: round(wallMs),
      database: {
        // The stats connection's own reads in the window are a handful against thousands.
        transactionsPerTurn: round((committedAfter - committedBefore) / turns, 1),
        connectionsPerInstance: round(busiest / instanceCount, 1),
        idleTransactionsPerSecondPerInstance: round(committedIdle / counts.scaleIdleSeconds / instanceCount, 1),
        logBytesPerTurn: Math.round(Number(sizes[0]!.bytes) / turns),
        logRowsPerTurn: round(Number(sizes[0]!.rows) / turns, 1),
      },
    };
  } catch (error) {
    for (const [i, instance] of instances.entries()) console.error(`Instance ${i} printed:\n${instance.output().slice(-2000)}`);
    throw error;
  } finally {
    await stats.client.end();
    await balancer.close();
    await Promise.all(instances.map((instance) => instance.kill()));
  }
}

export async function measureScaleOut(): Promise<ScaleOut> {
  const one = await scaleOutRun(1);
  const four = await scaleOutRun(4);
  return {
    one,
    four,
    firstEventP99Ratio: round(four.firstEvent.p99 / one.firstEvent.p99, 2),
    turnsPerSecondRatio: round(four.turnsPerSecond / one.turnsPerSecond, 2),
  };
}
