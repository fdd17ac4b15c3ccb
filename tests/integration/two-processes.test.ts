// Two `next start` processes on one PostgreSQL database, under racing inputs (README,
// "Tests"; docs/hitl.md, "Exactly once"; docs/turn-control.md). Each of 50 sessions pauses on
// an approval through one process, then everything at once: an approval through A's
// /api/hitl and through B's, an AG-UI resume, a message to each process, and a stop through
// the process that did not pause it. Afterwards: one decision per interrupt, the approved
// tool's effect at most once (once when it started), every session settled and answering,
// and every log in order.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent, type RunErrorEvent, type RunFinishedEvent, type TextMessageContentEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { postRun, readThread, userMessage } from '../support/agui';
import { freshPostgresUrl } from '../support/database';
import { eventually, readSessionLog, type LoggedEvent } from '../support/inspect';
import { logOrderProblems } from '../support/log-order';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const SESSIONS = 50;
/** Sessions raced at once: the two processes share 2 cores with the suite's own servers. */
const CONCURRENCY = 10;
/** The approved tool dawdles this long, so that many stops land while it runs. */
const TOOL_SLEEP_MS = 300;

const runBody = (threadId: string, content: string, messageId = randomUUID()) => ({
  threadId,
  runId: randomUUID(),
  messages: [{ ...userMessage(content), id: messageId }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
});

interface HttpAnswer {
  status: number;
  body: unknown;
}

/** A JSON POST that never throws on the answer: the status is what the race is judged on. */
async function post(url: string, body: unknown): Promise<HttpAnswer> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

const runError = (events: BaseEvent[]) => events.find((event): event is RunErrorEvent => event.type === EventType.RUN_ERROR);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs task(0) … task(count - 1), at most `limit` at a time. */
async function inPool<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

interface SessionTally {
  accepted: string[];
  refused: string[];
  replayed: number;
  stopped: boolean;
  toolRan: boolean;
  messagesAnswered: number;
  messagesRefused: string[];
  problems: string[];
}

const skipped = inject('postgresSkipped');
if (skipped) console.warn(`\n\u001b[33m!!! SKIPPING two processes on one PostgreSQL database: ${skipped}.\u001b[0m\n`);

describe.skipIf(Boolean(skipped))('two processes on one PostgreSQL database, 50 sessions racing', () => {
  let a: TestServer;
  let b: TestServer;
  let ledgerFile: string;
  beforeAll(async () => {
    const databaseUrl = await freshPostgresUrl('stackbone_two_proc');
    // One ledger for both processes: an effect carried out twice, on either, shows in it.
    ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-two-proc-')), 'ledger.jsonl');
    [a, b] = await Promise.all([
      startServer({ port: 3241, databaseUrl, env: fixtureEnv(ledgerFile) }),
      startServer({ port: 3242, databaseUrl, env: fixtureEnv(ledgerFile) }),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
  });

  async function raceSession(index: number): Promise<SessionTally> {
    const tally: SessionTally = {
      accepted: [],
      refused: [],
      replayed: 0,
      stopped: false,
      toolRan: false,
      messagesAnswered: 0,
      messagesRefused: [],
      problems: [],
    };
    const problem = (text: string) => tally.problems.push(`session ${index}: ${text}`);
    const [home, away] = index % 2 === 0 ? [a, b] : [b, a];
    const threadId = randomUUID();

    const paused = await postRun(home.url, 'ledger', runBody(threadId, `call recordEffect {"key":"race-${index}","sleepMs":${TOOL_SLEEP_MS}}`));
    const pause = paused.events.at(-1) as RunFinishedEvent;
    const interrupt = (pause.outcome as { interrupts: { id: string; toolCallId: string }[] }).interrupts[0]!;

    const resumeRunId = randomUUID();
    const messageIds = [randomUUID(), randomUUID()];
    const [approveA, approveB, resume, messageA, messageB, stop] = await Promise.all([
      post(`${a.url}/api/hitl/${interrupt.id}/approve`, {}),
      post(`${b.url}/api/hitl/${interrupt.id}/approve`, {}),
      postRun(away.url, 'ledger', {
        ...runBody(threadId, ''),
        runId: resumeRunId,
        parentRunId: pause.runId,
        messages: [],
        resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }],
      }),
      postRun(a.url, 'ledger', runBody(threadId, 'reply with 3 tokens', messageIds[0])),
      postRun(b.url, 'ledger', runBody(threadId, 'reply with 4 tokens', messageIds[1])),
      // Staggered, so that stops land before the decision, on the running tool, and after it.
      sleep((index % 6) * 60).then(() => post(`${away.url}/api/agents/ledger/stop`, { threadId })),
    ]);

    // Let every queued message go out, then the session must be idle with nothing waiting and its last run closed.
    await eventually(
      async () => {
        const { body } = await readThread(home.url, 'ledger', threadId);
        if (body.status !== 'idle' || body.queue.length !== 0) return false;
        const last = (await readSessionLog(a.databaseUrl, threadId)).at(-1)?.event.type;
        return last === 'run_finished' || last === 'run_failed';
      },
      30_000,
      `session ${index} to settle`,
    ).catch((error: Error) => problem(error.message));

    const log = await readSessionLog(a.databaseUrl, threadId);
    const runIds = new Set(log.flatMap(({ event }) => (event.type === 'run_started' ? [event.runId] : [])));

    for (const [name, answer] of [
      ['approve on A', approveA],
      ['approve on B', approveB],
    ] as const) {
      if (answer.status === 200) tally.accepted.push(name);
      else if (answer.status === 409) tally.refused.push(`${name}: ${(answer.body as { error?: { code?: string } }).error?.code}`);
      else problem(`${name} answered ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    const resumeError = runError(resume.events);
    if (resume.status !== 200) problem(`the resume answered ${resume.status} ${resume.text}`);
    else if (resumeError) {
      if (resumeError.code === 'internal_error') problem(`the resume failed: ${resumeError.message}`);
      tally.refused.push(`resume: ${resumeError.code}`);
    } else if (runIds.has(resumeRunId)) tally.accepted.push('resume');
    // An identical resume of a decision already made is answered and writes nothing (docs/hitl.md, "Resume").
    else tally.replayed++;
    if (tally.accepted.length !== 1) problem(`${tally.accepted.length} decisions accepted (${tally.accepted.join(', ')})`);

    const decided = log.filter(({ event }) => event.type === 'interrupt_decided' && event.interruptId === interrupt.id);
    if (decided.length !== 1) problem(`${decided.length} interrupt_decided events`);

    // The effect: once when the call ran (its result says whether it did), never twice; no retry, since nothing crashed.
    const started = log.filter(({ event }) => event.type === 'tool_started' && event.toolCallId === interrupt.toolCallId);
    const results = log.flatMap(({ event }) =>
      event.type === 'tool_result' && event.message.toolCallId === interrupt.toolCallId ? [event.message.content] : [],
    );
    const ledger = readLedger(ledgerFile).filter((line) => line.toolCallId === interrupt.toolCallId);
    const effects = ledger.filter((line) => line.kind === 'effect').length;
    const attempts = ledger.length - effects;
    if (results.length !== 1) problem(`${results.length} results for the approved call`);
    tally.toolRan = results.length === 1 && !results[0]!.startsWith('Not run');
    if (started.length > 1) problem(`the tool started ${started.length} times`);
    if (effects !== (tally.toolRan ? 1 : 0) || attempts !== effects)
      problem(`${effects} effects and ${attempts} attempts in the ledger; the result says ${JSON.stringify(results)}`);

    for (const [message, messageId] of [
      [messageA, messageIds[0]],
      [messageB, messageIds[1]],
    ] as const) {
      const error = runError(message.events);
      if (message.status !== 200) problem(`a message answered ${message.status} ${message.text}`);
      else if (error) {
        if (error.code === 'internal_error') problem(`a message failed: ${error.message}`);
        tally.messagesRefused.push(error.code ?? 'no code');
      } else if (message.events.at(-1)?.type !== EventType.RUN_FINISHED) problem(`a message's stream ended with ${message.events.at(-1)?.type}`);
      else tally.messagesAnswered++;
      const added = log.filter(({ event }) => event.type === 'message_added' && event.message.id === messageId).length;
      if (added !== (error ? 0 : 1)) problem(`message ${messageId} is in the log ${added} times`);
    }

    if (stop.status !== 200) problem(`the stop answered ${stop.status} ${JSON.stringify(stop.body)}`);
    tally.stopped = (stop.body as { stopped?: boolean }).stopped === true;

    for (const issue of logOrderProblems(log)) problem(issue);

    // Not stuck: the session answers a new message, through the process that did not pause it.
    const followUp = await postRun(away.url, 'ledger', runBody(threadId, 'reply with 2 tokens'));
    const text = followUp.events
      .filter((event): event is TextMessageContentEvent => event.type === EventType.TEXT_MESSAGE_CONTENT)
      .map((event) => event.delta)
      .join('');
    if (!(followUp.events.at(-1)?.type === EventType.RUN_FINISHED && text === 'token1 token2')) {
      problem(`the follow-up message got ${followUp.status} ${JSON.stringify(followUp.events.at(-1) ?? followUp.text)}`);
    }
    const after: LoggedEvent[] = await readSessionLog(a.databaseUrl, threadId);
    for (const issue of logOrderProblems(after)) problem(`after the follow-up, ${issue}`);
    return tally;
  }

  it('each interrupt is decided once, each effect happens once, no session is stuck, every log is in order', async () => {
    const started = Date.now();
    const tallies = await inPool(SESSIONS, CONCURRENCY, raceSession);
    const count = (pick: (tally: SessionTally) => number | boolean) => tallies.reduce((sum, tally) => sum + Number(pick(tally)), 0);
    const refusals = tallies.flatMap((tally) => tally.refused.map((line) => line.split(': ')[1]));
    console.log(
      [
        `two processes: ${SESSIONS} sessions in ${Date.now() - started} ms`,
        `decisions accepted ${count((t) => t.accepted.length)} (hitl ${count((t) => t.accepted.filter((name) => name !== 'resume').length)}, resume ${count((t) => t.accepted.includes('resume'))}), refused ${refusals.length} (${[...new Set(refusals)].join(', ')}), identical resumes answered ${count((t) => t.replayed)}`,
        `approved tool ran ${count((t) => t.toolRan)}, stops that stopped a run ${count((t) => t.stopped)}`,
        `messages answered ${count((t) => t.messagesAnswered)}, refused ${count((t) => t.messagesRefused.length)} (${[...new Set(tallies.flatMap((t) => t.messagesRefused))].join(', ')})`,
      ].join('\n'),
    );
    const problems = tallies.flatMap((tally) => tally.problems);
    if (problems.length) console.log(`server A said:\n${a.output().slice(-4000)}\nserver B said:\n${b.output().slice(-4000)}`);
    expect(problems).toEqual([]);
    // Both processes did the deciding and the running, or the race proved nothing.
    expect(count((t) => t.accepted.includes('approve on A'))).toBeGreaterThan(0);
    expect(count((t) => t.accepted.includes('approve on B'))).toBeGreaterThan(0);
    expect(count((t) => t.toolRan)).toBeGreaterThan(0);
  }, 240_000);
});
