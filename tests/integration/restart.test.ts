// Durability across a hard crash: the server is killed with SIGKILL between two runs.
import { randomUUID } from 'node:crypto';
import { EventType, type MessagesSnapshotEvent, type RunFinishedEvent } from '@ag-ui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { attemptsOf, effectsOf, readLedger } from '../fixtures/agents/ledger';
import { newHttpAgent, postRun, runHttpAgent, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3211, postgres: 3212 } as const;

/**
 * The database this file's servers use: on PostgreSQL the suite's, beside its shared server, as
 * several processes may serve one; on SQLite a file of their own, as a SQLite file takes one
 * server process (docs/deploy.md, "SQLite: one process").
 */
const databaseFor = (kind: 'sqlite' | 'postgres', shared: string) => (kind === 'sqlite' ? freshSqliteUrl() : Promise.resolve(shared));

for (const { kind, databaseUrl: shared, ledgerFile } of backends()) {
  describe(`after SIGKILL on ${kind}`, () => {
    it('a reopened thread still starts with a MESSAGES_SNAPSHOT of the first exchange', async () => {
      const databaseUrl = await databaseFor(kind, shared);
      const threadId = randomUUID();
      const first = await startServer({ port: PORTS[kind], databaseUrl, env: fixtureEnv(ledgerFile) });
      const agent = newHttpAgent(first.url, 'helpdesk', threadId);
      try {
        await runHttpAgent(agent, 'look up order po_42');
      } finally {
        await first.kill('SIGKILL');
      }
      const exchange = agent.messages.map((message) => ({ id: message.id, role: message.role }));
      expect(exchange.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

      const second = await startServer({ port: PORTS[kind], databaseUrl, env: fixtureEnv(ledgerFile) });
      try {
        const fresh = newHttpAgent(second.url, 'helpdesk', threadId);
        const { events, logged } = await runHttpAgent(fresh, 'thanks');
        expect(logged).toEqual([]);
        const snapshot = events.find((event) => event.type === EventType.MESSAGES_SNAPSHOT) as MessagesSnapshotEvent;
        expect(snapshot.messages.slice(0, 4).map((message) => ({ id: message.id, role: message.role }))).toEqual(exchange);
        expect(fresh.messages.at(-1)!.role).toBe('assistant');
      } finally {
        await second.kill();
      }
    });
  });
}

async function approveOutOfBand(url: string, interruptId: string) {
  const response = await fetch(`${url}/api/hitl/${interruptId}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { status: response.status, body: await response.json() };
}

async function pause(url: string, text: string) {
  const threadId = randomUUID();
  const runId = randomUUID();
  const { events } = await postRun(url, 'ledger', { threadId, runId, messages: [userMessage(text)] });
  const outcome = (events.at(-1) as RunFinishedEvent).outcome;
  if (outcome?.type !== 'interrupt') throw new Error(`expected an interrupt, got ${JSON.stringify(events.at(-1))}`);
  return { threadId, runId, interrupt: outcome.interrupts[0]! };
}

const turnFinished = (databaseUrl: string, threadId: string) =>
  eventually(async () => (await readSessionEvents(databaseUrl, threadId)).at(-1)?.type === 'run_finished', 20_000, 'the turn to finish');

for (const { kind, databaseUrl: shared, ledgerFile } of backends()) {
  describe(`crash recovery on ${kind}`, () => {
    let databaseUrl = '';
    beforeAll(async () => {
      databaseUrl = await databaseFor(kind, shared);
    });
    const boot = (env: Record<string, string> = {}) => startServer({ port: PORTS[kind], databaseUrl, env: { ...fixtureEnv(ledgerFile), ...env } });

    it('SIGKILL after a decision is accepted and before the tool completes: after restart it ran exactly once and the turn finished', async () => {
      let server = await boot();
      const { threadId, interrupt } = await pause(server.url, 'call recordEffect {"key":"crash","sleepMs":30000}');
      const lines = () => readLedger(ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId);
      try {
        expect((await approveOutOfBand(server.url, interrupt.id)).status).toBe(200);
        await eventually(async () => lines().some((line) => line.kind === 'attempt'), 10_000, 'the tool to start');
      } finally {
        await server.kill('SIGKILL');
      }
      const log = await readSessionEvents(databaseUrl, threadId);
      expect(log.at(-1)).toMatchObject({ type: 'tool_started', attempt: 1 });

      server = await boot();
      try {
        await turnFinished(databaseUrl, threadId);
        expect(effectsOf(lines())).toHaveLength(1);
        expect(attemptsOf(lines())).toEqual([1, 2]);
        const events = await readSessionEvents(databaseUrl, threadId);
        expect(events.filter((event) => event.type === 'interrupt_decided')).toHaveLength(1);
        expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(1);
        expect(events.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });
      } finally {
        await server.kill();
      }
    });

    it('SIGKILL while an interrupt is pending: after restart the same interrupt is pending and can be approved', async () => {
      let server = await boot();
      let paused;
      try {
        paused = await pause(server.url, 'call recordEffect {"key":"pending"}');
      } finally {
        await server.kill('SIGKILL');
      }
      server = await boot();
      try {
        const listed = await (await fetch(`${server.url}/api/hitl`)).json();
        expect(listed.interrupts.map((entry: { id: string }) => entry.id)).toContain(paused.interrupt.id);
        expect((await approveOutOfBand(server.url, paused.interrupt.id)).status).toBe(200);
        await turnFinished(databaseUrl, paused.threadId);
        expect(readLedger(ledgerFile).filter((line) => line.toolCallId === paused.interrupt.toolCallId && line.kind === 'effect')).toHaveLength(1);
      } finally {
        await server.kill();
      }
    });

    it('a tool whose schema changed since the pause (a deploy) is refused on resume, by AG-UI and by the HTTP API', async () => {
      let server = await boot();
      let paused;
      try {
        paused = await pause(server.url, 'call recordEffect {"key":"v1"}');
      } finally {
        await server.kill();
      }
      server = await boot({ STACKBONE_LEDGER_SCHEMA: 'v2' });
      try {
        const { events } = await postRun(server.url, 'ledger', {
          threadId: paused.threadId,
          runId: randomUUID(),
          parentRunId: paused.runId,
          messages: [],
          resume: [{ interruptId: paused.interrupt.id, status: 'resolved', payload: { approved: true } }],
        });
        expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: 'tool_schema_changed' });
        const viaHttp = await approveOutOfBand(server.url, paused.interrupt.id);
        expect(viaHttp).toMatchObject({ status: 409, body: { error: { code: 'tool_schema_changed' } } });
        expect(readLedger(ledgerFile).filter((line) => line.toolCallId === paused.interrupt.toolCallId)).toEqual([]);
      } finally {
        await server.kill();
      }
    });
  });
}
