// The crash matrix (docs/internals/architecture.md, "Crash points"): on each database, a server is
// killed with a real SIGKILL at each point a turn can die at, one doomed server per session.
// Then one server starts, as after a power cut, and must carry every session on: the turn
// finishes (or waits for its person again), the user's input is still there, each tool's
// effect is in the ledger once, and the thread takes its next message.
// CRASH_MATRIX=full repeats the points (three sessions each but the timer's), dying at other depths of a stream.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EventType, type RunFinishedEvent, type TextMessageContentEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptsOf, effectsOf, readLedger, type LedgerLine } from '../fixtures/agents/ledger';
import type { SessionEvent } from '../../server/store/events';
import type { CrashPointName } from '../../server/runtime/common/crash-point';
import { postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents, readTimers } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

// Not 3231/3232: identity.test.ts has those.
const PORTS = { sqlite: 3251, postgres: 3252 } as const;
const ROUNDS = process.env.CRASH_MATRIX === 'full' ? 3 : 1;

/** A database and ledger of the matrix's own: no other file's server sweeps these sessions. */
interface Backend {
  databaseUrl: string;
  ledgerFile: string;
}

/** A session whose server died at its point. */
interface Crashed {
  agent: 'ledger' | 'helpdesk' | 'mcp-demo';
  threadId: string;
  /** The user's text that must survive the crash. */
  input: string;
  /** The AG-UI resume the client sent as the server died, to send again. */
  resume?: ResumeRequest;
}

interface ResumeRequest {
  threadId: string;
  runId: string;
  parentRunId: string;
  messages: [];
  resume: { interruptId: string; status: 'resolved'; payload: { approved: true } }[];
}

interface Scenario {
  point: CrashPointName;
  /** Told apart from another scenario at the same point. */
  variant?: string;
  agent: Crashed['agent'];
  /** STACKBONE_CRASH_AFTER in this round: how deep into a stream the process dies. */
  crashAfter?: (round: number) => number;
  /** At most this many rounds, whatever CRASH_MATRIX says. */
  maxRounds?: number;
  /** The doomed server's own knobs (only the timer point runs the timer loop). */
  env?: Record<string, string>;
  /** Drives a new session on the doomed server until it gets to the point; returns the user's text. */
  drive: (url: string, threadId: string, tag: string) => Promise<Pick<Crashed, 'input' | 'resume'>>;
  /** What the log (and ledger) must hold right after the crash. */
  atCrash: (log: SessionEvent[], ledger: LedgerLine[]) => void;
  /** After the restart: what the recovered session must show, taking it to the end of its turn. */
  recovered: (server: TestServer, backend: Backend, crashed: Crashed) => Promise<void>;
}

// ─── Reading the log and the ledger ─────────────────────────────────────────────────────

function ofType<T extends SessionEvent['type']>(log: SessionEvent[], type: T): Extract<SessionEvent, { type: T }>[] {
  return log.filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
}

/** What the user said on the thread (a delegated task's question is in its own scope). */
const userTexts = (log: SessionEvent[]) =>
  ofType(log, 'message_added').flatMap((event) => (event.message.role === 'user' && !event.scope ? [event.message.content] : []));

/** The ids of the calls of ledger tools (recordEffect, noteEffect) the model made on the thread. */
const recordCalls = (log: SessionEvent[]) =>
  ofType(log, 'assistant_step').flatMap((event) =>
    (event.message.toolCalls ?? []).filter((call) => call.name === 'recordEffect' || call.name === 'noteEffect').map((call) => call.id),
  );

const ledgerOf = (backend: Backend, toolCallId: string) => readLedger(backend.ledgerFile).filter((line) => line.toolCallId === toolCallId);

const ended = (log: SessionEvent[]) => log.at(-1)?.type === 'run_finished' || log.at(-1)?.type === 'run_failed';

/** The log once its last run has ended (and `also` holds), nothing after the end. */
async function turnEnded(backend: Backend, threadId: string, what: string, also: (log: SessionEvent[]) => boolean = () => true): Promise<SessionEvent[]> {
  return eventually(
    async () => {
      const log = await readSessionEvents(backend.databaseUrl, threadId);
      return ended(log) && also(log) ? log : undefined;
    },
    30_000,
    what,
  );
}

// ─── Driving a session over the wires ───────────────────────────────────────────────────

/** A turn that pauses on a recordEffect approval (or another agent's gated call); returns the interrupt. */
async function pauseOnRecord(url: string, threadId: string, input: string, agent: Crashed['agent'] = 'ledger') {
  const runId = randomUUID();
  const { events } = await postRun(url, agent, { threadId, runId, messages: [userMessage(input)] });
  const outcome = (events.at(-1) as RunFinishedEvent | undefined)?.outcome;
  if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${JSON.stringify(events.at(-1))}`);
  return { runId, interrupt: outcome.interrupts[0]! };
}

/** Approves out of band; the server may die before it answers, which is the point. */
async function approve(url: string, interruptId: string): Promise<number | 'died'> {
  try {
    const response = await fetch(`${url}/api/hitl/${interruptId}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await response.text();
    return response.status;
  } catch {
    return 'died';
  }
}

/** A pause, then an approval: the run that carries the decision out is where the point is. */
async function approveRecord(url: string, threadId: string, tag: string): Promise<Pick<Crashed, 'input'>> {
  const input = `call recordEffect {"key":"${tag}"}`;
  const { interrupt } = await pauseOnRecord(url, threadId, input);
  await approve(url, interrupt.id);
  return { input };
}

/** The same, approved by an AG-UI resume instead, whose response the crash cuts off. */
async function resumeRecord(url: string, threadId: string, tag: string): Promise<Pick<Crashed, 'input' | 'resume'>> {
  const input = `call recordEffect {"key":"${tag}"}`;
  const paused = await pauseOnRecord(url, threadId, input);
  const resume: ResumeRequest = {
    threadId,
    runId: randomUUID(),
    parentRunId: paused.runId,
    messages: [],
    resume: [{ interruptId: paused.interrupt.id, status: 'resolved', payload: { approved: true } }],
  };
  await postRun(url, 'ledger', resume).catch(() => undefined);
  return { input, resume };
}

/** Starts a turn whose response the crash cuts off. */
async function cutOffTurn(url: string, agent: Crashed['agent'], threadId: string, input: string): Promise<void> {
  await postRun(url, agent, { threadId, runId: randomUUID(), messages: [userMessage(input)] }).catch(() => undefined);
}

// ─── The six points ─────────────────────────────────────────────────────────────────────

/**
 * The demo's MCP server (examples/demo/mcp/) answers this case's tool; `npm run demo:remove` takes
 * the server and this case along. Its record_note keeps a note once per idempotency key
 * (docs/mcp.md, "Calls are tool calls").
 */
const DEMO_MCP: Scenario = {
  point: 'tool-running',
  variant: 'an MCP tool',
  agent: 'mcp-demo',
  // The demo MCP server's record_note (docs/mcp.md, "Calls are tool calls"): it keeps a note once per idempotency key.
  drive: async (url, threadId, tag) => {
    const input = `call demo_record_note {"key":"${tag}"}`;
    const { interrupt } = await pauseOnRecord(url, threadId, input, 'mcp-demo');
    await approve(url, interrupt.id);
    return { input };
  },
  atCrash: (log) => {
    expect(log.at(-1)).toMatchObject({ type: 'tool_started', toolName: 'demo_record_note', attempt: 1 });
    expect(ofType(log, 'tool_result')).toEqual([]);
  },
  recovered: async (_server, backend, crashed) => {
    const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
    // The process died as the call went out (before or after the server kept the note): called
    // again with the same idempotency key, the note is there once, and the call has one result.
    expect(ofType(log, 'tool_started').map((event) => event.attempt)).toEqual([1, 2]);
    expect(ofType(log, 'tool_result').map((event) => event.message.content)).toEqual([
      expect.stringMatching(/^(?:Recorded "[^"]+"\.|"[^"]+" was already recorded by this call\.)$/),
    ]);
    const { key } = JSON.parse(crashed.input.slice(crashed.input.indexOf('{'))) as { key: string };
    expect(effectsOf(readLedger(backend.ledgerFile)).filter((line) => line.key === key)).toHaveLength(1);
  },
};

const SCENARIOS: Scenario[] = [
  {
    point: 'model-stream',
    agent: 'ledger',
    // 3, 1 or 6 words of the reply have streamed.
    crashAfter: (round) => [3, 1, 6][round % 3]!,
    drive: async (url, threadId) => {
      const input = 'reply with 12 tokens';
      await cutOffTurn(url, 'ledger', threadId, input);
      return { input };
    },
    atCrash: (log) => {
      expect(ofType(log, 'assistant_step')).toEqual([]);
      expect(ofType(log, 'run_finished')).toEqual([]);
    },
    recovered: async (_server, backend, crashed) => {
      const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
      // The reply is whole, not what had streamed before the crash, and there is one.
      const replies = ofType(log, 'assistant_step').map((event) => event.message.content);
      expect(replies).toEqual([Array.from({ length: 12 }, (_, i) => `token${i + 1}`).join(' ')]);
    },
  },
  {
    point: 'model-stream',
    variant: 'inside a delegated task',
    agent: 'ledger',
    crashAfter: (round) => [2, 5, 9][round % 3]!,
    drive: async (url, threadId) => {
      const input = 'call delegate_task {"agent":"ledger-worker","task":"reply with 10 tokens"}';
      await cutOffTurn(url, 'ledger', threadId, input);
      return { input };
    },
    atCrash: (log) => {
      // The task was handed over and its subagent was answering.
      expect(log.at(-1)).toMatchObject({ type: 'message_added', scope: expect.stringMatching(/^task:/), message: { content: 'reply with 10 tokens' } });
      expect(ofType(log, 'tool_result')).toEqual([]);
    },
    recovered: async (_server, backend, crashed) => {
      const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
      // The task goes on in the same conversation: its one question, its one whole answer.
      const tasks = ofType(log, 'message_added').filter((event) => event.scope);
      expect(tasks).toHaveLength(1);
      const answers = ofType(log, 'assistant_step').filter((event) => event.scope === tasks[0]!.scope);
      expect(answers.map((event) => event.message.content)).toEqual([Array.from({ length: 10 }, (_, i) => `token${i + 1}`).join(' ')]);
      const results = ofType(log, 'tool_result');
      expect(results.map((event) => event.message.toolName)).toEqual(['delegate_task']);
      expect(ofType(log, 'step_finished')).toHaveLength(1);
    },
  },
  {
    point: 'tool-call-stored',
    agent: 'ledger',
    drive: async (url, threadId, tag) => {
      const input = `call recordEffect {"key":"${tag}"}`;
      await cutOffTurn(url, 'ledger', threadId, input);
      return { input };
    },
    atCrash: (log) => {
      expect(log.at(-1)).toMatchObject({ type: 'assistant_step', message: { toolCalls: [{ name: 'recordEffect' }] } });
      expect(ofType(log, 'interrupts_opened')).toEqual([]);
    },
    recovered: async (server, backend, crashed) => {
      // The call needs an approval: the recovered turn asks for it, and nothing ran without it.
      const paused = await turnEnded(backend, crashed.threadId, 'the recovered turn to pause');
      expect(paused.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'interrupt' } });
      const [toolCallId] = recordCalls(paused);
      expect(ledgerOf(backend, toolCallId!)).toEqual([]);
      const { body } = await readThread(server.url, crashed.agent, crashed.threadId);
      expect(body.interrupts.pending).toHaveLength(1);
      expect(body.interrupts.pending[0].toolCallId).toBe(toolCallId);
      expect(await approve(server.url, body.interrupts.pending[0].id)).toBe(200);
      const log = await turnEnded(backend, crashed.threadId, 'the approved turn', (current) => ofType(current, 'interrupt_decided').length === 1);
      expect(ofType(log, 'tool_result')).toHaveLength(1);
      expect(attemptsOf(ledgerOf(backend, toolCallId!))).toEqual([1]);
    },
  },
  {
    point: 'tool-call-stored',
    variant: 'a tool that needs no approval',
    agent: 'ledger',
    drive: async (url, threadId, tag) => {
      const input = `call noteEffect {"key":"${tag}"}`;
      await cutOffTurn(url, 'ledger', threadId, input);
      return { input };
    },
    atCrash: (log, ledger) => {
      expect(log.at(-1)).toMatchObject({ type: 'assistant_step', message: { toolCalls: [{ name: 'noteEffect' }] } });
      expect(ofType(log, 'tool_started')).toEqual([]);
      expect(ledger).toEqual([]);
    },
    recovered: async (_server, backend, crashed) => {
      // noteEffect writes its effect every time it runs, with no key to make a repeat harmless.
      const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
      expect(ofType(log, 'tool_started').map((event) => event.attempt)).toEqual([1]);
      expect(effectsOf(ledgerOf(backend, recordCalls(log)[0]!))).toHaveLength(1);
    },
  },
  {
    point: 'decision-stored',
    agent: 'ledger',
    drive: approveRecord,
    atCrash: (log, ledger) => {
      expect(ofType(log, 'interrupt_decided')).toHaveLength(1);
      expect(ofType(log, 'tool_started')).toEqual([]);
      expect(ledger).toEqual([]);
    },
    recovered: async (_server, backend, crashed) => {
      const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
      expect(ofType(log, 'interrupt_decided')).toHaveLength(1);
      expect(attemptsOf(ledgerOf(backend, recordCalls(log)[0]!))).toEqual([1]);
    },
  },
  {
    point: 'decision-stored',
    variant: 'an AG-UI resume, sent again after the restart',
    agent: 'ledger',
    drive: resumeRecord,
    atCrash: (log, ledger) => {
      expect(ofType(log, 'interrupt_decided')).toHaveLength(1);
      expect(ofType(log, 'tool_started')).toEqual([]);
      expect(ledger).toEqual([]);
    },
    recovered: async (server, backend, crashed) => {
      // A client that never saw an answer sends its resume again: answered, never applied twice.
      const { events } = await postRun(server.url, 'ledger', crashed.resume);
      expect(events.map((event) => event.type)).not.toContain(EventType.RUN_ERROR);
      expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
      const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
      expect(ofType(log, 'interrupt_decided')).toHaveLength(1);
      expect(attemptsOf(ledgerOf(backend, recordCalls(log)[0]!))).toEqual([1]);
    },
  },
  {
    point: 'tool-running',
    agent: 'ledger',
    drive: approveRecord,
    atCrash: (log, ledger) => {
      expect(log.at(-1)).toMatchObject({ type: 'tool_started', toolName: 'recordEffect', attempt: 1 });
      expect(ofType(log, 'tool_result')).toEqual([]);
      // The tool did its work before the crash: the retry must not do it again.
      expect(effectsOf(ledger)).toHaveLength(1);
    },
    recovered: async (_server, backend, crashed) => {
      const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
      // Run again with the next attempt and the same toolCallId, which keeps the effect single.
      expect(attemptsOf(ledgerOf(backend, recordCalls(log)[0]!))).toEqual([1, 2]);
      expect(ofType(log, 'tool_started').map((event) => event.attempt)).toEqual([1, 2]);
    },
  },
  // An MCP tool's call, while the demo's MCP server is here to answer it (DEMO_MCP, above).
  ...(existsSync(path.resolve(import.meta.dirname, '../../examples/demo')) ? [DEMO_MCP] : []),
  {
    point: 'continuation-stream',
    agent: 'ledger',
    // 1, 2 or 3 words of "Record effect — recorded: …" have streamed; the step is not written.
    crashAfter: (round) => [1, 2, 3][round % 3]!,
    drive: approveRecord,
    atCrash: (log, ledger) => {
      expect(log.at(-1)).toMatchObject({ type: 'tool_result', message: { toolName: 'recordEffect' } });
      expect(attemptsOf(ledger)).toEqual([1]);
    },
    recovered: async (_server, backend, crashed) => {
      const log = await turnEnded(backend, crashed.threadId, 'the recovered turn');
      // The result stands: the model is asked again, the tool is not.
      expect(attemptsOf(ledgerOf(backend, recordCalls(log)[0]!))).toEqual([1]);
      expect(ofType(log, 'assistant_step').at(-1)!.message.content).toMatch(/^Record effect — recorded: \S+; attempt: 1\.$/);
    },
  },
  {
    point: 'timer-firing',
    agent: 'helpdesk',
    env: { STACKBONE_TIMER_MS: '200' },
    // A second doomed server's timer loop would fire the first one's timer (still due: that is
    // the point) and die on it, before its own session got that far.
    maxRounds: 1,
    drive: async (url, threadId, tag) => {
      const input = `remind me in 1 seconds to check po_${tag}`;
      const { events } = await postRun(url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage(input)] });
      expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
      return { input };
    },
    atCrash: (log) => {
      const reminders = userTexts(log).filter((text) => text.startsWith('Reminder:'));
      expect(reminders).toHaveLength(1);
      expect(log.at(-1)?.type).not.toBe('run_finished');
    },
    recovered: async (_server, backend, crashed) => {
      await eventually(
        async () => (await readTimers(backend.databaseUrl, crashed.threadId)).every((timer) => timer.fired),
        15_000,
        'the timer to be marked fired',
      );
      const log = await turnEnded(backend, crashed.threadId, "the reminder's turn");
      // Fired again after the restart, the timer adds nothing: one reminder, answered once.
      expect(userTexts(log).filter((text) => text.startsWith('Reminder:'))).toHaveLength(1);
      expect(ofType(log, 'run_finished')).toHaveLength(2);
      expect(ofType(log, 'tool_result').filter((event) => event.message.toolName === 'remindMe')).toHaveLength(1);
      expect(await readTimers(backend.databaseUrl, crashed.threadId)).toHaveLength(1);
    },
  },
];

// ─── What every recovered session must show ─────────────────────────────────────────────

async function assertCarriedOn(server: TestServer, backend: Backend, crashed: Crashed): Promise<void> {
  const log = await readSessionEvents(backend.databaseUrl, crashed.threadId);
  expect(log.at(-1)).toMatchObject({ type: 'run_finished', outcome: { type: 'success' } });
  expect(userTexts(log).filter((text) => text === crashed.input)).toHaveLength(1);
  // Each tool call of the thread has one result, and its effect is in the ledger once.
  for (const toolCallId of recordCalls(log)) {
    expect(ofType(log, 'tool_result').filter((event) => event.message.toolCallId === toolCallId)).toHaveLength(1);
    expect(effectsOf(ledgerOf(backend, toolCallId))).toHaveLength(1);
  }
  const { body } = await readThread(server.url, crashed.agent, crashed.threadId);
  expect(body).toMatchObject({ status: 'idle', interrupts: null, activeRun: null });

  // The next message works: a new turn on the same thread, answered in full.
  const { events } = await postRun(server.url, crashed.agent, {
    threadId: crashed.threadId,
    runId: randomUUID(),
    messages: [userMessage('reply with 3 tokens')],
  });
  expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
  const reply = events
    .filter((event): event is TextMessageContentEvent => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => event.delta)
    .join('');
  expect(reply).toBe('token1 token2 token3');
  expect(userTexts(await readSessionEvents(backend.databaseUrl, crashed.threadId))).toEqual([
    crashed.input,
    ...(crashed.agent === 'helpdesk' ? [expect.stringMatching(/^Reminder:/)] : []),
    'reply with 3 tokens',
  ]);
}

// ─── The matrix ─────────────────────────────────────────────────────────────────────────

/** Resolves once the doomed server died by SIGKILL at its point; fails if it lives on. */
async function untilKilledAt(server: TestServer, point: CrashPointName): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const alive = new Promise<'alive'>((resolve) => (timer = setTimeout(() => resolve('alive'), 20_000)));
  const end = await Promise.race([server.exited, alive]);
  clearTimeout(timer);
  if (end === 'alive') throw new Error(`The server did not die at ${point}. It printed:\n${server.output().slice(-3000)}`);
  expect(end.signal).toBe('SIGKILL');
  expect(server.output()).toContain(`STACKBONE_CRASH_AT=${point}`);
}

const cases = SCENARIOS.flatMap((scenario) =>
  Array.from({ length: Math.min(ROUNDS, scenario.maxRounds ?? ROUNDS) }, (_, round) => ({
    scenario,
    round,
    label: `${scenario.point}${scenario.variant ? ` (${scenario.variant})` : ''}${ROUNDS > 1 ? ` #${round + 1}` : ''}`,
  })),
);

for (const { kind } of backends()) {
  describe(`crash matrix on ${kind}`, () => {
    const backend: Backend = { databaseUrl: '', ledgerFile: '' };
    const crashes = new Map<string, Crashed>();

    beforeAll(async () => {
      backend.databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_crash_matrix');
      backend.ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-crash-')), 'ledger.jsonl');
    });

    for (const { scenario, round, label } of cases) {
      it(`SIGKILL at ${label}: the server dies there, and the log holds what it wrote`, async () => {
        // No sweep and no timers but the point's own: a doomed server must not carry on another's session.
        const server = await startServer({
          port: PORTS[kind],
          databaseUrl: backend.databaseUrl,
          env: {
            ...fixtureEnv(backend.ledgerFile),
            STACKBONE_SWEEP_MS: '0',
            STACKBONE_TIMER_MS: '0',
            ...scenario.env,
            STACKBONE_CRASH_AT: scenario.point,
            STACKBONE_CRASH_AFTER: String(scenario.crashAfter?.(round) ?? 1),
          },
        });
        const threadId = randomUUID();
        try {
          const { input, resume } = await scenario.drive(server.url, threadId, `${scenario.point}-${scenario.variant ? 'v' : ''}${round}`);
          await untilKilledAt(server, scenario.point);
          const log = await readSessionEvents(backend.databaseUrl, threadId);
          expect(userTexts(log)).toContain(input);
          const calls = recordCalls(log);
          scenario.atCrash(
            log,
            calls.flatMap((id) => ledgerOf(backend, id)),
          );
          crashes.set(label, { agent: scenario.agent, threadId, input, ...(resume ? { resume } : {}) });
        } finally {
          await server.kill('SIGKILL');
        }
      });
    }

    describe('after a restart', () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startServer({
          port: PORTS[kind],
          databaseUrl: backend.databaseUrl,
          env: { ...fixtureEnv(backend.ledgerFile), STACKBONE_TIMER_MS: '200' },
        });
      });
      afterAll(async () => {
        await server?.kill();
      });

      for (const { scenario, label } of cases) {
        it(`${label}: the session carries on, nothing is lost or done twice, and its next message works`, async () => {
          const crashed = crashes.get(label);
          if (!crashed) throw new Error(`No session crashed at ${label} (see the test above).`);
          await scenario.recovered(server, backend, crashed);
          await assertCarriedOn(server, backend, crashed);
        });
      }
    });
  });
}
