// Timers against real servers (docs/turn-control.md, "Timers"): a reminder fires from the
// in-process loop; with the loop off, from the cron route, once; and a timer due while its
// server is down fires once on the next server.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { eventually, readSessionEvents } from '../support/inspect';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { startServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3241, postgres: 3242 } as const;

const reminders = async (databaseUrl: string, threadId: string) =>
  (await readSessionEvents(databaseUrl, threadId)).filter(
    (event) => event.type === 'message_added' && event.message.role === 'user' && event.message.content.startsWith('Reminder:'),
  );

for (const { kind, url, databaseUrl, ledgerFile } of backends()) {
  describe(`timers on ${kind}`, () => {
    it("a reminder fires from the server's own loop and the agent answers it", async () => {
      const threadId = randomUUID();
      await postRun(url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('remind me in 1 seconds to check po_42')] });
      await eventually(async () => (await reminders(databaseUrl, threadId)).length === 1, 10_000, 'the reminder');
      await eventually(
        async () => (await readSessionEvents(databaseUrl, threadId)).filter((event) => event.type === 'run_finished').length === 2,
        10_000,
        'its turn',
      );
    });

    it('with no loop, the cron route fires a due timer once; a timer due while the server was killed fires once on the next', async () => {
      // A database of its own: the shared test servers run timer loops of their own.
      const own = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_timers');
      const env = { ...fixtureEnv(ledgerFile), STACKBONE_TIMER_MS: '0', STACKBONE_SWEEP_MS: '0' };
      const first = await startServer({ port: PORTS[kind], databaseUrl: own, env });
      const viaCron = randomUUID();
      const overRestart = randomUUID();
      try {
        await postRun(first.url, 'helpdesk', { threadId: viaCron, runId: randomUUID(), messages: [userMessage('remind me in 1 seconds to check po_7')] });
        await postRun(first.url, 'helpdesk', { threadId: overRestart, runId: randomUUID(), messages: [userMessage('remind me in 2 seconds to check po_42')] });
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        const tick = async () => (await (await fetch(`${first.url}/api/cron/timers`)).json()) as { fired: number; waiting: number };
        expect((await tick()).fired).toBeGreaterThanOrEqual(1);
        await eventually(async () => (await reminders(own, viaCron)).length === 1, 10_000, 'the cron reminder');
        expect(await reminders(own, overRestart)).toHaveLength(0);
      } finally {
        await first.kill('SIGKILL');
      }
      // Due while no server runs; the next server's loop fires it, once.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const second = await startServer({ port: PORTS[kind], databaseUrl: own, env: { ...env, STACKBONE_TIMER_MS: '200' } });
      try {
        await eventually(async () => (await reminders(own, overRestart)).length === 1, 10_000, 'the reminder after the restart');
        await new Promise((resolve) => setTimeout(resolve, 800));
        expect(await reminders(own, overRestart)).toHaveLength(1);
        expect(await reminders(own, viaCron)).toHaveLength(1);
      } finally {
        await second.kill();
      }
    });
  });
}
