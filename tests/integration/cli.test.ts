// The CLI end to end against a real server: list → approve → the session continues.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunFinishedEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../../server/agents/ledger';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { eventually, readSessionEvents } from '../support/inspect';

const run = promisify(execFile);
const cli = path.resolve('bin/stackbone.mjs');

async function stackbone(url: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, STACKBONE_URL: url } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

for (const server of backends()) {
  describe(`npx stackbone hitl on ${server.kind}`, () => {
    it('lists the pending call, approves it, and the session carries on to the end', async () => {
      const threadId = randomUUID();
      const { events } = await postRun(server.url, 'ledger', { threadId, runId: randomUUID(), messages: [userMessage('call recordEffect {"key":"from-cli"}')] });
      const outcome = (events.at(-1) as RunFinishedEvent).outcome;
      expect(outcome?.type).toBe('interrupt');
      const interrupt = (outcome as { interrupts: { id: string; toolCallId: string }[] }).interrupts[0]!;

      const listed = await stackbone(server.url, 'hitl', 'list', '--json');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout).interrupts).toContainEqual(expect.objectContaining({ id: interrupt.id, sessionId: threadId, toolName: 'recordEffect', args: { key: 'from-cli', sleepMs: 0 } }));
      const table = await stackbone(server.url, 'hitl', 'list');
      expect(table.stdout).toContain(interrupt.id);

      const approved = await stackbone(server.url, 'hitl', 'approve', interrupt.id, '--yes', '--json');
      expect(approved.code).toBe(0);
      expect(JSON.parse(approved.stdout)).toMatchObject({ decision: { status: 'approved', by: { source: 'cli' } }, continuation: { runId: expect.any(String) } });

      const log = await eventually(async () => {
        const all = await readSessionEvents(server.databaseUrl, threadId);
        return all.at(-1)?.type === 'run_finished' && all.filter((event) => event.type === 'run_finished').length === 2 ? all : undefined;
      }, 10_000, 'the continuation to finish');
      expect(log.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });
      expect(readLedger(server.ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId && line.kind === 'effect')).toHaveLength(1);

      const again = await stackbone(server.url, 'hitl', 'reject', interrupt.id, '--yes');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('interrupt_already_decided');
    });
  });
}
