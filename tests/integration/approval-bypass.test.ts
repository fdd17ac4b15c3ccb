// The approval-bypass suite (docs/security.md, "Proving it"): every path by which a gated tool
// could run — AG-UI, both chat wires with and without a session, /api/hitl, the CLI, a webhook, a
// timer, a queued message, a retry, recovery after SIGKILL, a lease lost to a second process —
// runs it only after a recorded approval and at most once, by the fixture ledger (one line per
// side effect, keyed by the call's idempotency key) and by the log (the approval is written
// before the tool starts). Each check collects violations instead of throwing, so the last
// block can show that a server with its gate broken on purpose fails them.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import type { RunFinishedEvent } from '@ag-ui/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import type { SessionEvent } from '../../server/store/events';
import { postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const cli = path.resolve('bin/stackbone.mjs');
const execute = promisify(execFile);

/** A server the checks run against: its URL, database and ledger file. */
interface Target {
  url: string;
  databaseUrl: string;
  ledgerFile: string;
}

/** How a path paused: the thread, and the interrupt a person must decide. */
interface Paused {
  threadId: string;
  interruptId: string;
}

const effects = (target: Target, key: string) => readLedger(target.ledgerFile).filter((line) => line.kind === 'effect' && line.key === key);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = { 'content-type': 'application/json' };

async function pendingOn(target: Target, threadId: string, timeoutMs = 10_000): Promise<string> {
  return eventually(
    async () => {
      const list = (await (await fetch(`${target.url}/api/hitl`)).json()) as { interrupts: { id: string; sessionId: string }[] };
      return list.interrupts.find((interrupt) => interrupt.sessionId === threadId)?.id;
    },
    timeoutMs,
    `a pending interrupt on ${threadId}`,
  );
}

async function idle(target: Target, agent: string, threadId: string): Promise<void> {
  await eventually(
    async () => {
      const { body } = await readThread(target.url, agent, threadId);
      return body.status === 'idle' && (body.queue as unknown[]).length === 0;
    },
    20_000,
    `thread ${threadId} to be idle`,
  );
}

/** Whether every start of the call's tool comes after an approval of it in the log. */
function approvalsPrecedeRuns(log: SessionEvent[]): string[] {
  const approved = new Set<string>();
  const callOf = new Map<string, string>();
  const problems: string[] = [];
  for (const event of log) {
    if (event.type === 'interrupts_opened') for (const record of event.interrupts) callOf.set(record.id, record.toolCallId);
    if (event.type === 'interrupt_decided' && event.decision.status === 'approved') approved.add(callOf.get(event.interruptId) ?? '');
    if (
      event.type === 'tool_started' &&
      ['recordEffect', 'needsEffect', 'deskEffect', 'tickEffect'].includes(event.toolName) &&
      !approved.has(event.toolCallId)
    ) {
      problems.push(`${event.toolName} (${event.toolCallId}) started with no approval in the log before it`);
    }
  }
  return problems;
}

async function agUiPause(target: Target, text: string, threadId = randomUUID()): Promise<Paused & { outcome?: string }> {
  const { events } = await postRun(target.url, 'ledger', { threadId, runId: randomUUID(), messages: [userMessage(text)] });
  const finished = events.at(-1) as RunFinishedEvent | undefined;
  const outcome = finished?.outcome as { type: string; interrupts?: { id: string }[] } | undefined;
  return { threadId, interruptId: outcome?.interrupts?.[0]?.id ?? '', outcome: outcome?.type };
}

const approveOverHttp = (target: Target, interruptId: string, action = 'approve') =>
  fetch(`${target.url}/api/hitl/${interruptId}/${action}`, { method: 'POST', headers: json, body: '{}' });

const resume = (target: Target, paused: Paused, payload: unknown = { approved: true }) =>
  postRun(target.url, 'ledger', {
    threadId: paused.threadId,
    runId: randomUUID(),
    messages: [],
    resume: [{ interruptId: paused.interruptId, status: 'resolved', payload }],
  });

async function approveWithCli(target: Target, interruptId: string): Promise<void> {
  await execute(process.execPath, [cli, 'hitl', 'approve', interruptId, '--yes', '--json'], { env: { ...process.env, STACKBONE_URL: target.url } });
}

/** One way a gated call gets asked for, and how a person approves it on that path. */
interface GatedPath {
  name: string;
  pause: (target: Target, key: string) => Promise<Paused>;
  approve: (target: Target, paused: Paused) => Promise<unknown>;
  /** Another attempt at deciding (a replay, a second surface): must add nothing. */
  again?: (target: Target, paused: Paused) => Promise<unknown>;
}

const gatedPaths: GatedPath[] = [
  {
    name: 'AG-UI run, resumed over AG-UI',
    pause: (target, key) => agUiPause(target, `call recordEffect {"key":"${key}"}`),
    approve: (target, paused) => resume(target, paused),
    // The same resume again (a client unsure it arrived), then /api/hitl on the decided call.
    again: async (target, paused) => {
      await resume(target, paused);
      await approveOverHttp(target, paused.interruptId);
    },
  },
  {
    name: "a tool gated by the AI SDK's needsApproval",
    pause: (target, key) => agUiPause(target, `call needsEffect {"key":"${key}"}`),
    approve: (target, paused) => approveOverHttp(target, paused.interruptId),
    again: (target, paused) => resume(target, paused),
  },
  {
    name: 'a gated call inside a subagent',
    pause: (target, key) => agUiPause(target, `call delegate_task {"agent":"ledger-worker","task":"call recordEffect {\\"key\\":\\"${key}\\"}"}`),
    approve: (target, paused) => resume(target, paused),
  },
  {
    name: 'the OpenAI wire with a session, approved over /api/hitl',
    pause: async (target, key) => {
      const threadId = randomUUID();
      const openai = new OpenAI({ baseURL: `${target.url}/api/v1`, apiKey: 'dev', defaultHeaders: { 'x-stackbone-session': threadId }, maxRetries: 0 });
      const completion = await openai.chat.completions.create({ model: 'ledger', messages: [{ role: 'user', content: `call recordEffect {"key":"${key}"}` }] });
      if (completion.choices[0]!.finish_reason !== 'tool_calls') return { threadId, interruptId: '' };
      return { threadId, interruptId: await pendingOn(target, threadId) };
    },
    approve: (target, paused) => approveOverHttp(target, paused.interruptId),
    again: (target, paused) => approveOverHttp(target, paused.interruptId, 'reject'),
  },
  {
    name: 'the Anthropic wire with a session, approved with the CLI',
    pause: async (target, key) => {
      const threadId = randomUUID();
      const anthropic = new Anthropic({ baseURL: `${target.url}/api`, apiKey: 'dev', defaultHeaders: { 'x-stackbone-session': threadId }, maxRetries: 0 });
      const message = await anthropic.messages.create({
        model: 'ledger',
        max_tokens: 256,
        messages: [{ role: 'user', content: `call recordEffect {"key":"${key}"}` }],
      });
      if (message.stop_reason !== 'tool_use') return { threadId, interruptId: '' };
      return { threadId, interruptId: await pendingOn(target, threadId) };
    },
    approve: (target, paused) => approveWithCli(target, paused.interruptId),
    again: (target, paused) => approveWithCli(target, paused.interruptId).catch(() => undefined),
  },
  {
    name: 'a webhook',
    pause: async (target, key) => {
      const threadId = randomUUID();
      await fetch(`${target.url}/api/webhooks/ledger`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ threadId, text: `call recordEffect {"key":"${key}"}`, id: `delivery-${key}` }),
      });
      return { threadId, interruptId: await pendingOn(target, threadId) };
    },
    approve: (target, paused) => approveOverHttp(target, paused.interruptId),
  },
  {
    name: 'a timer',
    pause: async (target, key) => {
      const threadId = randomUUID();
      await postRun(target.url, 'ledger', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage(`call scheduleMessage ${JSON.stringify({ text: `call recordEffect {"key":"${key}"}`, inMs: 200 })}`)],
      });
      return { threadId, interruptId: await pendingOn(target, threadId, 15_000) };
    },
    approve: (target, paused) => approveOverHttp(target, paused.interruptId),
  },
  {
    name: 'a message queued behind a running turn',
    pause: async (target, key) => {
      const threadId = randomUUID();
      const busy = postRun(target.url, 'ledger', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage(`call noteEffect {"key":"busy-${key}","sleepMs":1200}`)],
      });
      await eventually(async () => (await readThread(target.url, 'ledger', threadId)).body.status === 'running', 10_000, 'the first turn running');
      await fetch(`${target.url}/api/agents/ledger/queue`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ threadId, op: 'add', text: `call recordEffect {"key":"${key}"}`, id: `queued-${key}` }),
      });
      await busy;
      return { threadId, interruptId: await pendingOn(target, threadId) };
    },
    approve: (target, paused) => approveOverHttp(target, paused.interruptId),
  },
  {
    name: 'a retry sent while the decision is pending',
    pause: async (target, key) => {
      const paused = await agUiPause(target, `call recordEffect {"key":"${key}"}`);
      // A retry is no decision: it is refused, and nothing runs.
      await postRun(target.url, 'ledger', {
        threadId: paused.threadId,
        runId: randomUUID(),
        messages: [],
        forwardedProps: { retry: { retryId: randomUUID() } },
      });
      await fetch(`${target.url}/api/v1/sessions/${paused.threadId}/retry`, { method: 'POST', headers: json, body: JSON.stringify({ retryId: randomUUID() }) });
      return paused;
    },
    approve: (target, paused) => resume(target, paused),
  },
];

/** Runs one gated path end to end; answers what went wrong (nothing, when the gate holds). */
async function checkGatedPath(target: Target, gated: GatedPath): Promise<string[]> {
  const key = `bypass-${randomUUID()}`;
  const problems: string[] = [];
  const paused = await gated.pause(target, key);
  if (!paused.interruptId) problems.push('it did not pause for a person');
  // Give a sneaky run time to do what it should not.
  await sleep(300);
  if (effects(target, key).length > 0) problems.push(`the tool ran ${effects(target, key).length}× before any approval`);
  if (!paused.interruptId) return problems;
  await gated.approve(target, paused);
  await idle(target, 'ledger', paused.threadId);
  if (effects(target, key).length !== 1) problems.push(`after one approval the tool ran ${effects(target, key).length}×, not once`);
  if (gated.again) {
    await gated.again(target, paused);
    await idle(target, 'ledger', paused.threadId);
    if (effects(target, key).length !== 1) problems.push(`a second decision made it run ${effects(target, key).length}×`);
  }
  problems.push(...approvalsPrecedeRuns(await readSessionEvents(target.databaseUrl, paused.threadId)));
  return problems;
}

/** Paths where the call must never run at all. */
const neverPaths: { name: string; attempt: (target: Target, key: string) => Promise<unknown> }[] = [
  {
    name: 'a tool whose approval policy throws',
    attempt: async (target, key) => {
      const { threadId } = await agUiPause(target, `call brokenPolicyEffect {"key":"${key}"}`);
      await idle(target, 'ledger', threadId);
    },
  },
  {
    name: 'a key-holders tool on a stateless OpenAI turn',
    attempt: (target, key) =>
      new OpenAI({ baseURL: `${target.url}/api/v1`, apiKey: 'dev', maxRetries: 0 }).chat.completions.create({
        model: 'ledger',
        messages: [{ role: 'user', content: `call deskEffect {"key":"${key}"}` }],
      }),
  },
  {
    name: 'a key-holders tool on a stateless Anthropic turn',
    attempt: (target, key) =>
      new Anthropic({ baseURL: `${target.url}/api`, apiKey: 'dev', maxRetries: 0 }).messages.create({
        model: 'ledger',
        max_tokens: 256,
        messages: [{ role: 'user', content: `call deskEffect {"key":"${key}"}` }],
      }),
  },
  {
    name: 'a call rejected over /api/hitl, then approved again',
    attempt: async (target, key) => {
      const paused = await agUiPause(target, `call recordEffect {"key":"${key}"}`);
      await approveOverHttp(target, paused.interruptId, 'reject');
      await approveOverHttp(target, paused.interruptId);
      await resume(target, paused);
      await idle(target, 'ledger', paused.threadId);
    },
  },
  {
    name: 'a call cancelled, then approved with the CLI',
    attempt: async (target, key) => {
      const paused = await agUiPause(target, `call recordEffect {"key":"${key}"}`);
      await approveOverHttp(target, paused.interruptId, 'cancel');
      await approveWithCli(target, paused.interruptId).catch(() => undefined);
      await idle(target, 'ledger', paused.threadId);
    },
  },
  {
    name: 'a queued message sent now while the decision waits (the decision is cancelled)',
    attempt: async (target, key) => {
      const paused = await agUiPause(target, `call recordEffect {"key":"${key}"}`);
      const queue = (body: Record<string, unknown>) =>
        fetch(`${target.url}/api/agents/ledger/queue`, { method: 'POST', headers: json, body: JSON.stringify({ threadId: paused.threadId, ...body }) });
      await queue({ op: 'add', text: 'reply with 2 tokens', id: `next-${key}` });
      await queue({ op: 'sendNow', id: `next-${key}` });
      await idle(target, 'ledger', paused.threadId);
      // Approving what was cancelled is refused.
      await approveOverHttp(target, paused.interruptId);
      await idle(target, 'ledger', paused.threadId);
    },
  },
];

async function checkNeverPath(target: Target, never: (typeof neverPaths)[number]): Promise<string[]> {
  const key = `never-${randomUUID()}`;
  await never.attempt(target, key);
  await sleep(300);
  const ran = effects(target, key).length;
  return ran > 0 ? [`the tool ran ${ran}× though nobody approved it`] : [];
}

for (const server of backends()) {
  describe(`approval bypass on ${server.kind}: every path runs a gated tool only after a recorded approval, and once`, () => {
    for (const gated of gatedPaths) {
      it(
        gated.name,
        async () => {
          expect(await checkGatedPath(server, gated)).toEqual([]);
        },
        45_000,
      );
    }
    for (const never of neverPaths) {
      it(`never: ${never.name}`, async () => {
        expect(await checkNeverPath(server, never)).toEqual([]);
      }, 45_000);
    }
  });
}

const postgres = await postgresReachable();
const kinds = ['sqlite', ...(postgres ? ['postgres' as const] : [])] as const;
const fresh = (kind: 'sqlite' | 'postgres', schema: string) => (kind === 'sqlite' ? freshSqliteUrl() : freshPostgresUrl(schema));
const ledgerIn = async (name: string) => path.join(await mkdtemp(path.join(os.tmpdir(), `stackbone-${name}-`)), 'ledger.jsonl');

for (const [index, kind] of kinds.entries()) {
  describe(`approval bypass on ${kind}: crashes and a second process`, () => {
    it('recovery after SIGKILL: the pause survives the restart, nothing ran, and one approval runs the tool once', async () => {
      const target: Target = { url: '', databaseUrl: await fresh(kind, 'stackbone_bypass_restart'), ledgerFile: await ledgerIn('bypass-restart') };
      const boot = () => startServer({ port: 3271 + index, databaseUrl: target.databaseUrl, env: fixtureEnv(target.ledgerFile) });
      let server = await boot();
      try {
        target.url = server.url;
        const key = `restart-${randomUUID()}`;
        const paused = await agUiPause(target, `call recordEffect {"key":"${key}"}`);
        await server.kill('SIGKILL');
        server = await boot();
        target.url = server.url;
        await sleep(1_000); // a recovery sweep or two
        expect(await pendingOn(target, paused.threadId)).toBe(paused.interruptId);
        expect(effects(target, key)).toHaveLength(0);
        await approveOverHttp(target, paused.interruptId);
        await idle(target, 'ledger', paused.threadId);
        expect((await approveOverHttp(target, paused.interruptId)).status).toBe(409);
        expect(effects(target, key)).toHaveLength(1);
        expect(approvalsPrecedeRuns(await readSessionEvents(target.databaseUrl, paused.threadId))).toEqual([]);
      } finally {
        await server.kill();
      }
    }, 90_000);

    // A second process on one SQLite file does not start (docs/deploy.md; sqlite-lock.test.ts shows it refused while the first is stopped).
    it.runIf(kind === 'postgres')(
      'a lease lost to a second process: the stalled run stops at once when it wakes, the one that took over finishes, the effect is once',
      async () => {
        const databaseUrl = await fresh(kind, 'stackbone_bypass_lease');
        const ledgerFile = await ledgerIn('bypass-lease');
        const [a, b] = await Promise.all([
          startServer({ port: 3281 + 2 * index, databaseUrl, env: fixtureEnv(ledgerFile) }),
          startServer({ port: 3282 + 2 * index, databaseUrl, env: fixtureEnv(ledgerFile) }),
        ]);
        const pid = a.pid;
        try {
          const onA: Target = { url: a.url, databaseUrl, ledgerFile };
          const key = `lease-${randomUUID()}`;
          const paused = await agUiPause(onA, `call tickEffect {"key":"${key}","ms":9000}`);
          expect(paused.outcome).toBe('interrupt');
          await approveOverHttp(onA, paused.interruptId);
          const ticks = (attempt: number) => readLedger(ledgerFile).filter((line) => line.kind === 'tick' && line.key === key && line.attempt === attempt);
          await eventually(async () => ticks(1).length > 0, 10_000, 'the approved tool working on A');
          // A stalls past its lease (3 s): B's recovery sweep takes the session over and carries the call out again.
          process.kill(pid, 'SIGSTOP');
          try {
            await eventually(async () => ticks(2).length > 0, 15_000, 'the call carried on by B');
          } finally {
            process.kill(pid, 'SIGCONT');
          }
          const wokeAt = Date.now();
          await sleep(2_500);
          // A noticed on waking (its heartbeat's renewal is refused) and its tool's signal aborted.
          const late = ticks(1).filter((line) => Date.parse(line.at) > wokeAt + 1_500);
          expect(late, 'ticks of the stalled run after it woke').toEqual([]);
          const onB: Target = { url: b.url, databaseUrl, ledgerFile };
          await idle(onB, 'ledger', paused.threadId);
          expect(effects(onB, key)).toHaveLength(1);
          const log = await readSessionEvents(databaseUrl, paused.threadId);
          expect(approvalsPrecedeRuns(log)).toEqual([]);
          expect(log.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });
        } finally {
          await Promise.all([a.kill(), b.kill()]);
        }
      },
      120_000,
    );
  });
}

describe('approval bypass: a gate broken on purpose fails the checks', () => {
  let broken: TestServer;
  let target: Target;
  beforeAll(async () => {
    const databaseUrl = await freshSqliteUrl();
    const ledgerFile = await ledgerIn('bypass-broken');
    broken = await startServer({ port: 3291, databaseUrl, env: { ...fixtureEnv(ledgerFile), STACKBONE_TEST_BREAK_GATE: '1' } });
    target = { url: broken.url, databaseUrl, ledgerFile };
  }, 60_000);
  afterAll(async () => {
    await broken?.kill();
  });

  it('the checks report the tool running without an approval, on every path that asks', async () => {
    const reports = await Promise.all(gatedPaths.slice(0, 3).map((gated) => checkGatedPath(target, gated)));
    for (const report of reports) expect(report.join('; ')).toMatch(/did not pause|before any approval|no approval in the log/);
    expect((await checkNeverPath(target, neverPaths[0]!)).join('; ')).toMatch(/ran 1× though nobody approved it/);
  }, 60_000);
});
