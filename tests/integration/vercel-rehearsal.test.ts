// A rehearsal of the Vercel deployment (docs/deploy.md), on this machine: the database is
// migrated by the build step a Vercel build runs (`node scripts/db.mjs deploy`, VERCEL=1), and
// the production build is served by two `next start` processes — two function instances — on
// one PostgreSQL database, with no in-process sweeper or timer loop (STACKBONE_SWEEP_MS=0,
// STACKBONE_TIMER_MS=0): only the cron routes, called here as Vercel Cron calls them
// (GET with `Authorization: Bearer $CRON_SECRET`), carry sessions on. Each instance has a pool
// of 5 connections (`connection_limit`, as on Vercel) and listens for other instances'
// writes through DIRECT_URL.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EventType, type RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptsOf, effectsOf, readLedger } from '../fixtures/agents/ledger';
import { joinStream, postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { emptyPostgresSchema } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PORTS = { a: 3261, b: 3262 } as const;
const SCHEMA = 'stackbone_vercel';
const CRON_SECRET = `cron-${randomUUID()}`;
/** How long a turn holds its session without renewing: a killed instance's turn is up for recovery after it. */
const LEASE_MS = 3_000;

/** An empty schema, migrated as a Vercel build migrates it; answers the app's URL and the direct one. */
async function deployDatabase(): Promise<{ databaseUrl: string; directUrl: string }> {
  const direct = await emptyPostgresSchema(SCHEMA);
  const pooled = new URL(direct);
  pooled.searchParams.set('connection_limit', '5');
  const env = { ...process.env, VERCEL: '1', DATABASE_URL: pooled.toString(), DIRECT_URL: direct.toString() };
  await run(process.execPath, [path.join(repoRoot, 'scripts', 'db.mjs'), 'deploy'], { cwd: repoRoot, env });
  return { databaseUrl: pooled.toString(), directUrl: direct.toString() };
}

const cron = (server: TestServer, route: 'recover' | 'timers', secret: string | null = CRON_SECRET) =>
  fetch(`${server.url}/api/cron/${route}`, { headers: secret ? { authorization: `Bearer ${secret}` } : {} });

const approve = (server: TestServer, interruptId: string) =>
  fetch(`${server.url}/api/hitl/${interruptId}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

async function pause(server: TestServer, text: string) {
  const threadId = randomUUID();
  const { events } = await postRun(server.url, 'ledger', { threadId, runId: randomUUID(), messages: [userMessage(text)] });
  const outcome = (events.at(-1) as RunFinishedEvent).outcome;
  if (outcome?.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(events.at(-1))}`);
  return { threadId, interrupt: outcome.interrupts[0]! };
}

// Vercel's path is PostgreSQL only; without a server this is skipped as loudly as the rest of the Postgres half.
if (backends().some((server) => server.kind === 'postgres')) {
  describe('a Vercel rehearsal: two instances on one PostgreSQL, crons instead of loops', () => {
    let a: TestServer;
    let b: TestServer;
    let databaseUrl: string;
    let ledgerFile: string;

    beforeAll(async () => {
      const database = await deployDatabase();
      databaseUrl = database.databaseUrl;
      ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-vercel-')), 'ledger.jsonl');
      const env = {
        STACKBONE_FIXTURE_AGENTS: '1',
        STACKBONE_LEDGER_FILE: ledgerFile,
        STACKBONE_LEASE_MS: String(LEASE_MS),
        STACKBONE_SWEEP_MS: '0',
        STACKBONE_TIMER_MS: '0',
        CRON_SECRET,
        DIRECT_URL: database.directUrl,
      };
      [a, b] = await Promise.all([startServer({ port: PORTS.a, databaseUrl, env }), startServer({ port: PORTS.b, databaseUrl, env })]);
    }, 90_000);

    afterAll(async () => {
      await Promise.all([a?.kill(), b?.kill()]);
    });

    it('a decision made on one instance continues the run on it, once, and a client of the other instance sees the continuation live', async () => {
      const key = `vercel-${randomUUID().slice(0, 8)}`;
      const { threadId, interrupt } = await pause(a, `call recordEffect {"key":"${key}"}`);
      const { body: thread } = await readThread(a.url, 'ledger', threadId);
      const watchingA = joinStream(a.url, 'ledger', { threadId, offset: thread.cursor }, { stop: (entry) => entry.event.type === EventType.RUN_FINISHED });
      const decided = await approve(b, interrupt.id);
      expect(decided.status).toBe(200);
      const seen = await watchingA;
      expect(seen.events.map((event) => event.type)).toContain(EventType.TOOL_CALL_RESULT);
      expect(seen.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      await eventually(async () => (await readThread(a.url, 'ledger', threadId)).body.status === 'idle', 10_000, 'the continuation to finish');
      expect(readLedger(ledgerFile).filter((line) => line.key === key && line.kind === 'effect')).toHaveLength(1);
      expect((await approve(a, interrupt.id)).status).toBe(409);
    });

    it('a due timer waits for the cron call (nothing else fires it), which fires it once; its turn shows live on the other instance', async () => {
      const threadId = randomUUID();
      await postRun(a.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('remind me in 1 seconds to check po_7')] });
      const reminders = async () =>
        (await readSessionEvents(databaseUrl, threadId)).filter(
          (event) => event.type === 'message_added' && event.message.role === 'user' && event.message.content.startsWith('Reminder:'),
        );
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await reminders()).toHaveLength(0);

      expect((await cron(b, 'timers', null)).status).toBe(401);
      expect((await cron(b, 'timers', 'not-the-secret')).status).toBe(401);
      expect(await reminders()).toHaveLength(0);

      const { body: thread } = await readThread(a.url, 'helpdesk', threadId);
      const watchingA = joinStream(a.url, 'helpdesk', { threadId, offset: thread.cursor }, { stop: (entry) => entry.event.type === EventType.RUN_FINISHED });
      const tick = await cron(b, 'timers');
      expect(tick.status).toBe(200);
      expect(((await tick.json()) as { fired: number }).fired).toBe(1);
      const seen = await watchingA;
      expect(seen.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
      expect(await reminders()).toHaveLength(1);
      // A second call finds nothing due.
      expect(((await (await cron(a, 'timers')).json()) as { fired: number }).fired).toBe(0);
      expect(await reminders()).toHaveLength(1);
    });

    it('a run whose instance is killed mid-tool is left alone until the next cron call, which carries it on: the tool runs again, its effect stays once, the turn finishes', async () => {
      const key = `killed-${randomUUID().slice(0, 8)}`;
      const { threadId, interrupt } = await pause(a, `call recordEffect {"key":"${key}","sleepMs":30000}`);
      const lines = () => readLedger(ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId);
      expect((await approve(a, interrupt.id)).status).toBe(200);
      await eventually(async () => lines().some((line) => line.kind === 'attempt'), 10_000, 'the tool to start on A');
      await a.kill('SIGKILL');

      // Past the lease, with no sweeper anywhere, the turn stays where it died.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 1_500));
      expect((await readSessionEvents(databaseUrl, threadId)).at(-1)).toMatchObject({ type: 'tool_started', attempt: 1 });

      const sweep = await cron(b, 'recover');
      expect(sweep.status).toBe(200);
      expect(await sweep.json()).toMatchObject({ sessions: 1, started: 1 });
      await eventually(async () => (await readSessionEvents(databaseUrl, threadId)).at(-1)?.type === 'run_finished', 20_000, 'the recovered turn to finish');
      expect(effectsOf(lines())).toHaveLength(1);
      expect(attemptsOf(lines())).toEqual([1, 2]);
      const events = await readSessionEvents(databaseUrl, threadId);
      expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(1);
      expect(events.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });
      expect((await readThread(b.url, 'ledger', threadId)).body.status).toBe('idle');
    });
  });
}
