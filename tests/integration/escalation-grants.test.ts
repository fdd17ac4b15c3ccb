// Escalation and scoped grants on a real server, on SQLite and PostgreSQL
// (docs/approvals.md). An approval request whose server is killed before it
// expires is escalated by the next server's sweep after a restart, then denied at its second
// expiry, and the model is told so; a grant lets the next call run without a pause, recorded,
// until it is revoked.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import type { InterruptRecord } from '../../server/store/pauses';
import type { SessionEvent } from '../../server/store/events';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3309, postgres: 3310 } as const;
type Kind = keyof typeof PORTS;
/** Every server this file started, killed at the end whatever happened. */
const started: TestServer[] = [];

interface Setup {
  server: TestServer;
  databaseUrl: string;
  ledgerFile: string;
  threadId: string;
  interrupt: InterruptRecord;
  /** The log as the first server left it, killed before the interrupt expired. */
  logAtKill: SessionEvent[];
}

/** Pauses on a call; answers the interrupt as the log records it. */
async function pause(url: string, databaseUrl: string, threadId: string, text: string): Promise<InterruptRecord> {
  const { events } = await postRun(url, 'approval-desk', { threadId, runId: randomUUID(), messages: [userMessage(text)] });
  const outcome = (events.at(-1) as RunFinishedEvent).outcome;
  if (outcome?.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(events.at(-1))}`);
  const id = outcome.interrupts[0]!.id;
  const opened = (await readSessionEvents(databaseUrl, threadId)).flatMap((event) => (event.type === 'interrupts_opened' ? event.interrupts : []));
  return opened.find((record) => record.id === id)!;
}

/** A server on a fresh database; paused on an escalating call and killed before it expires; then a new server after it expired. */
async function restartedAfterExpiry(kind: Kind): Promise<Setup> {
  const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_escalation');
  const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-escalation-')), 'ledger.jsonl');
  const boot = async () => {
    const server = await startServer({ port: PORTS[kind], databaseUrl, env: { ...fixtureEnv(ledgerFile), STACKBONE_SWEEP_MS: '200' } });
    started.push(server);
    return server;
  };
  const first = await boot();
  const threadId = randomUUID();
  let interrupt: InterruptRecord;
  try {
    interrupt = await pause(first.url, databaseUrl, threadId, 'call escalatingEffect {"key":"late"}');
  } finally {
    await first.kill('SIGKILL');
  }
  const logAtKill = await readSessionEvents(databaseUrl, threadId);
  // Down at the moment of expiry: the next server finds it expired.
  const wait = Date.parse(interrupt.expiresAt!) + 100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return { server: await boot(), databaseUrl, ledgerFile, threadId, interrupt, logAtKill };
}

const kinds = backends().map((backend) => backend.kind as Kind);
const setups = new Map<Kind, Setup>();

beforeAll(async () => {
  const ready = await Promise.all(kinds.map(async (kind) => [kind, await restartedAfterExpiry(kind)] as const));
  for (const [kind, setup] of ready) setups.set(kind, setup);
}, 150_000);

afterAll(async () => {
  await Promise.all(started.map((server) => server.kill()));
});

for (const kind of kinds) {
  describe(`escalation and grants on ${kind}`, () => {
    it('escalates an interrupt that expired while the server was down, once, then denies it at its new expiry and tells the model', async () => {
      const { databaseUrl, threadId, interrupt, logAtKill, ledgerFile } = setups.get(kind)!;
      expect(logAtKill.some((event) => event.type === 'interrupt_escalated' || event.type === 'interrupt_decided')).toBe(false);

      const escalated = await eventually(
        async () => (await readSessionEvents(databaseUrl, threadId)).find((event) => event.type === 'interrupt_escalated'),
        10_000,
        'the escalation',
      );
      expect(escalated).toMatchObject({ interruptId: interrupt.id, level: 1, to: ['key:ops'] });
      expect(Date.parse((escalated as { expiresAt: string }).expiresAt)).toBeGreaterThan(Date.parse(interrupt.expiresAt!));

      const log = await eventually(
        async () => {
          const events = await readSessionEvents(databaseUrl, threadId);
          return events.at(-1)?.type === 'run_finished' && events.some((event) => event.type === 'interrupt_decided') && events;
        },
        10_000,
        'the denial at the second expiry',
      );
      expect(log.filter((event) => event.type === 'interrupt_escalated')).toHaveLength(1);
      expect(log.find((event) => event.type === 'interrupt_decided')).toMatchObject({
        interruptId: interrupt.id,
        decision: { status: 'denied', expired: true, by: { source: 'expiry' } },
      });
      const result = log.find((event) => event.type === 'tool_result') as Extract<SessionEvent, { type: 'tool_result' }>;
      expect(result.status).toBe('denied');
      expect(result.message.content).toMatch(/^No one decided within [\d.]+s \(escalated once to key:ops\); the call was denied and did not run\.$/);
      expect(interrupt.toolCallId).toEqual(expect.any(String));
      expect(readLedger(ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId)).toEqual([]);
    });

    it('a grant lets the next call run without a pause, recorded on its start; revoked, the next call pauses again', async () => {
      const { server, databaseUrl, ledgerFile } = setups.get(kind)!;
      const threadId = randomUUID();
      const first = await pause(server.url, databaseUrl, threadId, 'call grantableEffect {"key":"g1"}');
      const approved = await fetch(`${server.url}/api/hitl/${first.id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant: { scope: 'session' } }),
      });
      expect(approved.status).toBe(200);
      const { grant } = (await approved.json()) as { grant: { id: string; scope: string; toolName: string } };
      expect(grant).toMatchObject({ scope: 'session', toolName: 'grantableEffect' });
      await eventually(async () => (await readSessionEvents(databaseUrl, threadId)).at(-1)?.type === 'run_finished', 10_000, 'the approved turn');

      const { events } = await postRun(server.url, 'approval-desk', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('call grantableEffect {"key":"g2"}')],
      });
      expect((events.at(-1) as RunFinishedEvent).outcome).toMatchObject({ type: 'success' });
      const started = (await readSessionEvents(databaseUrl, threadId)).filter((event) => event.type === 'tool_started');
      expect(started.at(-1)).toMatchObject({ toolName: 'grantableEffect', grantId: grant.id });
      expect(readLedger(ledgerFile).filter((line) => line.key === 'g2' && line.kind === 'effect')).toHaveLength(1);

      const listed = await (await fetch(`${server.url}/api/sessions/${threadId}/grants`)).json();
      expect(listed).toMatchObject({ grants: [{ active: true, grant: { id: grant.id } }] });
      const revoked = await fetch(`${server.url}/api/sessions/${threadId}/grants/${grant.id}`, { method: 'DELETE' });
      expect(revoked.status).toBe(200);
      expect(await (await fetch(`${server.url}/api/sessions/${threadId}/grants/${grant.id}`, { method: 'DELETE' })).json()).toMatchObject({
        error: { code: 'not_found' },
      });

      const again = await pause(server.url, databaseUrl, threadId, 'call grantableEffect {"key":"g3"}');
      expect(again.toolName).toBe('grantableEffect');
      expect(readLedger(ledgerFile).filter((line) => line.key === 'g3')).toEqual([]);
    });
  });
}
