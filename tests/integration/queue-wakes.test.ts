// The serverless rehearsal of due work (docs/deploy.md, "Due work"): a production server with
// STACKBONE_WAKER=vercel-queue — no in-process loop, no cron call — where every timer, expiry,
// escalation, webhook retry and orphaned run is brought on time by a wake alone: the real
// @vercel/queue client in the server sends it, and a stand-in for the queue service at its HTTP
// boundary (tests/support/queue-service.ts) delivers it to POST /api/wake as the service does —
// at least once, every delivery twice here, every other message early. On SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attemptsOf, effectsOf, readLedger } from '../fixtures/agents/ledger';
import type { SessionEvent } from '../../server/store/events';
import { wakeMessage } from '../../server/wake/wake-message';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startQueueService, type QueueService } from '../support/queue-service';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3401, postgres: 3402 } as const;
type Kind = keyof typeof PORTS;
const SECRET = `wake-secret-${randomUUID()}-${randomUUID()}`;
/** How late any due work may come: the bound, which a wake's whole-second delay leaves room in. */
const ON_TIME_MS = 2_000;
const LEASE_MS = 3_000;

/** A token as the OIDC helper reads it from VERCEL_OIDC_TOKEN: a JWT whose expiry is an hour away (the stand-in checks it is the one sent). */
function oidcToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'rehearsal', exp: Math.floor(Date.now() / 1000) + 3600 })}.signature`;
}

/** A webhook receiver that fails each notice's first two attempts, and notes when each attempt came. */
async function startFlakyReceiver() {
  const attempts: { id: string; at: number; status: number }[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      const status = attempts.filter((attempt) => attempt.id === id).length < 2 ? 500 : 204;
      attempts.push({ id, at: Date.now(), status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    attempts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Rig {
  kind: Kind;
  server: TestServer;
  databaseUrl: string;
  ledgerFile: string;
  queue: QueueService;
  receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;
  boot(): Promise<TestServer>;
}

const rigs: Rig[] = [];

async function rig(kind: Kind): Promise<Rig> {
  const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_wakes');
  const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-wakes-')), 'ledger.jsonl');
  const token = oidcToken();
  const self = { kind, databaseUrl, ledgerFile } as Rig;
  self.queue = await startQueueService({
    consumerUrl: () => `${self.server.url}/api/wake`,
    token,
    chaos: { duplicateEvery: 1, earlyEvery: 2, earlyMs: 1_500 },
  });
  self.receiver = await startFlakyReceiver();
  const env = {
    ...fixtureEnv(ledgerFile),
    STACKBONE_LEASE_MS: String(LEASE_MS),
    STACKBONE_WAKER: 'vercel-queue',
    STACKBONE_QUEUE_URL: self.queue.url,
    STACKBONE_SECRET: SECRET,
    VERCEL_OIDC_TOKEN: token,
    VERCEL_DEPLOYMENT_ID: 'dpl_rehearsal',
    STACKBONE_WEBHOOK_URL: self.receiver.url,
    STACKBONE_WEBHOOK_SECRET: `whsec_${Buffer.from('stackbone wake rehearsal secret!').toString('base64')}`,
    STACKBONE_DELIVERY_BACKOFF_MS: '500',
  };
  self.boot = async () => (self.server = await startServer({ port: PORTS[kind], databaseUrl, env }));
  await self.boot();
  rigs.push(self);
  return self;
}

/** When `check` first holds, by polling every 50 ms: what a user watching would see. */
async function seenAt(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now();
}

const kinds = backends().map((backend) => backend.kind as Kind);
const ready = new Map<Kind, Rig>();

beforeAll(async () => {
  for (const [kind, made] of await Promise.all(kinds.map(async (kind) => [kind, await rig(kind)] as const))) ready.set(kind, made);
}, 90_000);

afterAll(async () => {
  await Promise.all(rigs.flatMap((made) => [made.server?.kill(), made.queue.close(), made.receiver.close()]));
});

for (const kind of kinds) {
  describe(`due work woken by the queue alone, on ${kind}`, () => {
    it('refuses a POST to /api/wake that is not a queue delivery of a wake this server signed (401 not_a_wake)', async () => {
      const { server } = ready.get(kind)!;
      const delivery = {
        'content-type': 'application/json',
        'ce-type': 'com.vercel.queue.v2beta',
        'ce-vqsqueuename': 'stackbone-wake',
        'ce-vqsconsumergroup': 'g',
        'ce-vqsmessageid': 'm',
        'ce-vqsreceipthandle': 'r',
      };
      const wake = { kind: 'session', key: randomUUID(), at: new Date() } as const;
      vi.stubEnv('STACKBONE_SECRET', `another-${SECRET}`);
      const forged = JSON.stringify(wakeMessage(wake));
      vi.stubEnv('STACKBONE_SECRET', SECRET);
      const signed = JSON.stringify(wakeMessage(wake));
      vi.unstubAllEnvs();
      const attempts = [
        { headers: { 'content-type': 'application/json' }, body: signed }, // the right body, not from the queue
        { headers: delivery, body: forged }, // from "the queue", signed by another secret
        { headers: delivery, body: JSON.stringify({ ...JSON.parse(signed), key: randomUUID() }) }, // a real signature on another wake
        { headers: delivery, body: 'not json' },
      ];
      for (const attempt of attempts) {
        const response = await fetch(`${server.url}/api/wake`, { method: 'POST', ...attempt });
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_a_wake');
      }
    });

    it('a timer fires exactly once, within 2 s of its time', async () => {
      const { server, databaseUrl, queue } = ready.get(kind)!;
      const threadId = randomUUID();
      const { events } = await postRun(server.url, 'helpdesk', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('remind me in 3 seconds to check po_7')],
      });
      const result = events.find((event) => event.type === 'TOOL_CALL_RESULT') as { content: string } | undefined;
      const dueAt = Date.parse((JSON.parse(result!.content) as { at: string }).at);
      const reminders = async () =>
        (await readSessionEvents(databaseUrl, threadId)).filter(
          (event) => event.type === 'message_added' && event.message.role === 'user' && event.message.content.startsWith('Reminder:'),
        );
      const firedAt = await seenAt(async () => (await reminders()).length > 0, 10_000, 'the reminder');
      console.info(`[rehearsal] ${kind}: the timer fired ${firedAt - dueAt} ms after its time`);
      expect(firedAt - dueAt).toBeLessThanOrEqual(ON_TIME_MS);
      expect(firedAt).toBeGreaterThanOrEqual(dueAt);
      await eventually(async () => (await readSessionEvents(databaseUrl, threadId)).at(-1)?.type === 'run_finished', 10_000, 'the reminder’s turn');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await reminders()).toHaveLength(1);
      // The queue delivered the timer's wake twice, and some wakes early: the timer came once, not early.
      expect(queue.deliveries.filter((delivery) => delivery.wake.kind === 'timer' && delivery.duplicate).length).toBeGreaterThan(0);
      expect(queue.deliveries.some((delivery) => delivery.early && delivery.status === 200)).toBe(true);
    });

    it('an approval nobody decides escalates at its expiry and is denied at its second, each within 2 s, and the turn goes on', async () => {
      const { server, databaseUrl } = ready.get(kind)!;
      const threadId = randomUUID();
      const { events } = await postRun(server.url, 'approval-desk', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('call escalatingEffect {"key":"nobody"}')],
      });
      const outcome = (events.at(-1) as RunFinishedEvent).outcome;
      expect(outcome?.type).toBe('interrupt');
      const log = () => readSessionEvents(databaseUrl, threadId);
      const opened = (await log()).flatMap((event) => (event.type === 'interrupts_opened' ? event.interrupts : []))[0]!;
      const escalatedAt = await seenAt(async () => (await log()).some((event) => event.type === 'interrupt_escalated'), 10_000, 'the escalation');
      console.info(`[rehearsal] ${kind}: the approval escalated ${escalatedAt - Date.parse(opened.expiresAt!)} ms after its expiry`);
      expect(escalatedAt - Date.parse(opened.expiresAt!)).toBeLessThanOrEqual(ON_TIME_MS);
      const escalated = (await log()).find((event) => event.type === 'interrupt_escalated') as Extract<SessionEvent, { type: 'interrupt_escalated' }>;
      const deniedAt = await seenAt(async () => (await log()).some((event) => event.type === 'interrupt_decided'), 10_000, 'the denial');
      console.info(`[rehearsal] ${kind}: the escalated approval was denied ${deniedAt - Date.parse(escalated.expiresAt)} ms after its second expiry`);
      expect(deniedAt - Date.parse(escalated.expiresAt)).toBeLessThanOrEqual(ON_TIME_MS);
      expect(deniedAt).toBeGreaterThanOrEqual(Date.parse(escalated.expiresAt));
      await eventually(async () => (await log()).at(-1)?.type === 'run_finished', 10_000, 'the turn after the denial');
      const final = await log();
      expect(final.filter((event) => event.type === 'interrupt_escalated')).toHaveLength(1);
      expect(final.filter((event) => event.type === 'interrupt_decided')).toHaveLength(1);
    });

    it('a webhook that fails is tried again on its backoff (0.5 s, then 2.5 s), each retry within 2 s of its time, and lands on the third attempt', async () => {
      const { server, receiver } = ready.get(kind)!;
      const before = new Set(receiver.attempts.map((attempt) => attempt.id));
      await postRun(server.url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hello')] });
      const id = await eventually(async () => receiver.attempts.find((attempt) => !before.has(attempt.id))?.id, 10_000, 'the turn’s first notice');
      await eventually(async () => receiver.attempts.filter((attempt) => attempt.id === id).length >= 3, 15_000, 'the third attempt');
      const [first, second, third] = receiver.attempts.filter((attempt) => attempt.id === id);
      expect([first!.status, second!.status, third!.status]).toEqual([500, 500, 204]);
      console.info(`[rehearsal] ${kind}: webhook retries came ${second!.at - first!.at - 500} ms and ${third!.at - second!.at - 2_500} ms after their backoff`);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(500);
      expect(second!.at - first!.at).toBeLessThanOrEqual(500 + ON_TIME_MS);
      expect(third!.at - second!.at).toBeGreaterThanOrEqual(2_500);
      expect(third!.at - second!.at).toBeLessThanOrEqual(2_500 + ON_TIME_MS);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.attempts.filter((attempt) => attempt.id === id)).toHaveLength(3);
    });

    it('a run whose server was killed mid-tool is carried on after its lease by the next wake: the tool runs again, its effect stays once', async () => {
      const made = ready.get(kind)!;
      const key = `killed-${randomUUID().slice(0, 8)}`;
      const threadId = randomUUID();
      const { events } = await postRun(made.server.url, 'ledger', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage(`call recordEffect {"key":"${key}","sleepMs":30000}`)],
      });
      const outcome = (events.at(-1) as RunFinishedEvent).outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(events.at(-1))}`);
      const interrupt = outcome.interrupts[0]!;
      const approved = await fetch(`${made.server.url}/api/hitl/${interrupt.id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(approved.status).toBe(200);
      const lines = () => readLedger(made.ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId);
      await eventually(async () => lines().some((line) => line.kind === 'attempt'), 10_000, 'the tool to start');
      await made.server.kill('SIGKILL');
      const killedAt = Date.now();
      await made.boot();
      // Nothing touches the session: only the wake of its lease can carry it on.
      const finishedAt = await seenAt(
        async () => (await readSessionEvents(made.databaseUrl, threadId)).at(-1)?.type === 'run_finished',
        20_000,
        'the recovered turn',
      );
      console.info(`[rehearsal] ${kind}: the orphaned run finished ${finishedAt - killedAt} ms after its server was killed (lease ${LEASE_MS} ms)`);
      expect(effectsOf(lines())).toHaveLength(1);
      expect(attemptsOf(lines())).toEqual([1, 2]);
      const log = await readSessionEvents(made.databaseUrl, threadId);
      expect(log.filter((event) => event.type === 'tool_result')).toHaveLength(1);
      expect(log.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });
    });
  });
}
