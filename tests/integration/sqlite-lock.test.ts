// One server process per SQLite file (docs/deploy.md, "SQLite: one process"): a second `next start` on a file
// another serves does not start — it exits at once with one line naming the holder — whether the
// first is running or stopped (SIGSTOP: alive, so still the file's); once the first is gone, even
// by SIGKILL, a server starts on the file at once and serves what it holds. Two processes on one
// PostgreSQL database are the supported way to run several (two-servers.test.ts).
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, readThread, runInput } from '../support/agui';
import { freshSqliteUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { first: 3383, second: 3384 } as const;

describe('a second server process on one SQLite file', () => {
  let databaseUrl: string;
  let env: Record<string, string>;
  let first: TestServer | undefined;
  beforeAll(async () => {
    databaseUrl = await freshSqliteUrl();
    env = fixtureEnv(path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-sqlite-lock-')), 'ledger.jsonl'));
    first = await startServer({ port: PORTS.first, databaseUrl, env });
  }, 60_000);
  afterAll(async () => {
    await first?.kill();
  });

  /** Starts a second server on the file; answers what it printed when it exited, or fails if it started. */
  async function refusedStart(): Promise<string> {
    const started = Date.now();
    const failure = await startServer({ port: PORTS.second, databaseUrl, env }).then(
      async (server) => {
        await server.kill();
        return undefined;
      },
      (error: Error) => error.message,
    );
    expect(failure, 'the second server started').toBeDefined();
    expect(Date.now() - started, 'a refusal is at once').toBeLessThan(20_000);
    return failure!;
  }

  it('is refused while the first runs, and while it is stopped (SIGSTOP), with one line naming it; the first serves on', async () => {
    const threadId = randomUUID();
    expect((await postRun(first!.url, 'helpdesk', runInput(threadId, 'say 2 words'))).events.at(-1)?.type).toBe('RUN_FINISHED');
    const refusal = await refusedStart();
    const lines = refusal.split('\n').filter((line) => line.includes('[stackbone]'));
    expect(lines).toEqual([expect.stringContaining(`[stackbone] The server does not start: another process (pid ${first!.pid}) serves the SQLite database`)]);
    expect(lines[0]).toContain('use PostgreSQL to run several');
    expect((await readThread(first!.url, 'helpdesk', threadId)).body.status).toBe('idle');

    process.kill(first!.pid, 'SIGSTOP');
    try {
      expect(await refusedStart()).toContain('The server does not start: another process');
    } finally {
      process.kill(first!.pid, 'SIGCONT');
    }
    expect((await readThread(first!.url, 'helpdesk', threadId)).body.status).toBe('idle');
  }, 90_000);

  it('once the first is killed (SIGKILL, no clean-up), the next server starts on the file at once and serves its threads', async () => {
    const threadId = randomUUID();
    expect((await postRun(first!.url, 'helpdesk', runInput(threadId, 'say 2 words'))).events.at(-1)?.type).toBe('RUN_FINISHED');
    await first!.kill('SIGKILL');
    first = await startServer({ port: PORTS.second, databaseUrl, env });
    const { body } = await readThread(first.url, 'helpdesk', threadId);
    expect(body.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant']);
    expect((await postRun(first.url, 'helpdesk', runInput(threadId, 'say 1 word'))).events.at(-1)?.type).toBe('RUN_FINISHED');
  }, 90_000);
});
