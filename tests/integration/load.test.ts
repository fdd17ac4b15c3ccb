// Load: 200 AG-UI runs fired at once against one process, on each database kind — every one
// answers, streams to its end and leaves a complete log (README, "Tests"). Timings are printed
// for the record, never asserted: performance goals live in `npm run bench`. LOAD_RUNS raises
// (or lowers) the count.
import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent, type RunErrorEvent, type TextMessageContentEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { readStream, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { readSessionLog } from '../support/inspect';
import { logOrderProblems } from '../support/log-order';

const RUNS = Number(process.env.LOAD_RUNS) || 200;
/** One run in four calls a tool that runs freely, so that tool steps are under load too. */
const TOOL_EVERY = 4;

interface TimedRun {
  threadId: string;
  withTool: boolean;
  status: number;
  events: BaseEvent[];
  /** ms from sending the request to the first event; null when none came. */
  firstEventMs: number | null;
  /** What went wrong on the wire (a refused request, a broken stream). */
  failure?: string;
}

async function timedRun(baseUrl: string, index: number): Promise<TimedRun> {
  const threadId = randomUUID();
  const withTool = index % TOOL_EVERY === 0;
  const content = withTool ? 'call lookupOrder {"orderId":"po_42"}' : 'reply with 5 tokens';
  const sent = performance.now();
  let firstEventMs: number | null = null;
  try {
    const response = await fetch(`${baseUrl}/api/agents/helpdesk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ threadId, runId: randomUUID(), messages: [userMessage(content)], tools: [], context: [], state: {}, forwardedProps: {} }),
    });
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      return { threadId, withTool, status: response.status, events: [], firstEventMs, failure: await response.text() };
    }
    const { events } = await readStream(response, (_entry, all) => {
      if (all.length === 1) firstEventMs = performance.now() - sent;
      return false;
    });
    return { threadId, withTool, status: response.status, events, firstEventMs };
  } catch (error) {
    return { threadId, withTool, status: 0, events: [], firstEventMs, failure: String(error) };
  }
}

/** Everything a user would notice is wrong with one run: its answer, its stream, its log. */
async function runProblems(databaseUrl: string, run: TimedRun): Promise<string[]> {
  const problems: string[] = [];
  if (run.status !== 200 || run.failure) problems.push(`answered ${run.status}: ${run.failure ?? ''}`.slice(0, 300));
  const error = run.events.find((event): event is RunErrorEvent => event.type === EventType.RUN_ERROR);
  if (error) problems.push(`RUN_ERROR ${error.code}: ${error.message}`);
  if (run.events[0]?.type !== EventType.RUN_STARTED || run.events.at(-1)?.type !== EventType.RUN_FINISHED) {
    problems.push(`the stream went ${run.events[0]?.type} … ${run.events.at(-1)?.type}`);
  }
  const text = run.events
    .filter((event): event is TextMessageContentEvent => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => event.delta)
    .join('');
  if (run.withTool ? !run.events.some((event) => event.type === EventType.TOOL_CALL_RESULT) : text !== 'token1 token2 token3 token4 token5') {
    problems.push(run.withTool ? 'no tool result streamed' : `streamed "${text}"`);
  }
  const log = await readSessionLog(databaseUrl, run.threadId);
  problems.push(...logOrderProblems(log));
  const types = log.map(({ event }) => event.type);
  const expected = run.withTool
    ? ['run_started', 'message_added', 'assistant_step', 'tool_started', 'tool_result', 'assistant_step', 'run_finished']
    : ['run_started', 'message_added', 'assistant_step', 'run_finished'];
  if (types.join() !== expected.join()) problems.push(`the log is ${types.join(', ')}`);
  return problems.map((problem) => `thread ${run.threadId}: ${problem}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

for (const backend of backends()) {
  describe(`${RUNS} concurrent runs against one ${backend.kind} server`, () => {
    it('every run answers 200, streams to RUN_FINISHED and leaves its whole turn in the log', async () => {
      const started = performance.now();
      const runs = await Promise.all(Array.from({ length: RUNS }, (_, index) => timedRun(backend.url, index)));
      const wallMs = performance.now() - started;

      const latencies = runs.flatMap((run) => (run.firstEventMs === null ? [] : [run.firstEventMs])).sort((x, y) => x - y);
      console.log(
        `load (${backend.kind}): ${RUNS} runs (${runs.filter((run) => run.withTool).length} with a tool) in ${Math.round(wallMs)} ms; ` +
          `first event p50 ${Math.round(percentile(latencies, 0.5))} ms, p99 ${Math.round(percentile(latencies, 0.99))} ms, max ${Math.round(latencies.at(-1) ?? NaN)} ms`,
      );

      const problems: string[] = [];
      // Ten logs at a time: each read opens its own connection.
      for (let start = 0; start < runs.length; start += 10) {
        for (const found of await Promise.all(runs.slice(start, start + 10).map((run) => runProblems(backend.databaseUrl, run)))) problems.push(...found);
      }
      expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    }, 180_000);
  });
}
