// The issue's goals, each judged on figures of the same run, per database.
import type { InProcessRow } from '../measure/in-process';
import type { ScaleOut, ScaleOutRun } from '../measure/scale-out';
import type { DatabaseFigures, Goal } from './results';
import type { DatabaseKind } from './servers';

const TTFT_BUDGET_MS: Record<DatabaseKind, number> = { sqlite: 2, postgres: 5 };
const TOTAL_RATIO: Record<DatabaseKind, number> = { sqlite: 1.1, postgres: 1.25 };
/** A short reply's set-up cost: first token within bare + this, last byte within this × bare. */
const SETUP_FIRST_TOKEN_MS: Record<DatabaseKind, number> = { sqlite: 1, postgres: 2 };
const SETUP_LAST_BYTE_RATIO: Record<DatabaseKind, number> = { sqlite: 1.25, postgres: 1.5 };
/** 200 runs at once: our first-event p99 over the bare route's in the same burst. */
const BURST_P99_RATIO: Record<DatabaseKind, number> = { sqlite: 1.1, postgres: 1.0 };
/** A 500-token durable turn in process over `streamText` alone. */
const IN_PROCESS_RATIO: Record<DatabaseKind, number> = { sqlite: 1.15, postgres: 1.3 };

export function judgeGoals(database: DatabaseKind, figures: DatabaseFigures, inProcess: InProcessRow[]): Goal[] {
  const goal = (text: string, target: string, measured: string, met: boolean): Goal => ({ goal: text, database, target, measured, met });
  const { streamOverhead: stream, writesPerTurn: writes, reopen, concurrency, approvalRoundTrip: approval, memory, setupCost: setup } = figures;
  const durableTurn = inProcess.find((row) => row.variant === `durable turn, ${database} store`);
  const goals = [
    goal(
      `set-up: ${setup.tokens}-token reply on a new thread, first token p50`,
      `≤ bare + ${SETUP_FIRST_TOKEN_MS[database]} ms`,
      `bare + ${setup.firstToken.deltaMs} ms (${setup.firstToken.oursMs} vs ${setup.firstToken.bareMs} ms)`,
      setup.firstToken.deltaMs <= SETUP_FIRST_TOKEN_MS[database],
    ),
    goal(
      `set-up: ${setup.tokens}-token reply on a new thread, last byte p50`,
      `≤ ${SETUP_LAST_BYTE_RATIO[database]} × bare`,
      `${setup.lastByte.ratio} (${setup.lastByte.oursMs} vs ${setup.lastByte.bareMs} ms)`,
      setup.lastByte.ratio <= SETUP_LAST_BYTE_RATIO[database],
    ),
    goal(
      `burst: ${concurrency.runs} runs at once, first event p99 over the bare route's`,
      `≤ ${BURST_P99_RATIO[database]}`,
      `${concurrency.firstEventP99Ratio} (${concurrency.firstEvent.p99} vs ${concurrency.bare.firstEvent.p99} ms)`,
      concurrency.firstEventP99Ratio <= BURST_P99_RATIO[database],
    ),
    goal(
      'in process: a 500-token durable turn over streamText alone',
      `≤ ${IN_PROCESS_RATIO[database]}`,
      durableTurn ? `${durableTurn.ratio} (${durableTurn.msPerTurn} ms per turn)` : 'not measured',
      durableTurn !== undefined && durableTurn.ratio <= IN_PROCESS_RATIO[database],
    ),
    // Judged against the text-stream baseline, the stricter of the two (docs/internals/benchmarks.md).
    goal(
      'time to first token, p50',
      `≤ bare + ${TTFT_BUDGET_MS[database]} ms`,
      `bare + ${stream.ttft.deltaMs} ms (${stream.ttft.oursMs} vs ${stream.ttft.bareMs} ms)`,
      stream.ttft.deltaMs <= TTFT_BUDGET_MS[database],
    ),
    goal(
      'streamOverhead.total.ratio',
      `≤ ${TOTAL_RATIO[database]}`,
      `${stream.total.ratio} (${stream.total.oursMs} vs ${stream.total.bareMs} ms${stream.total.ratioSse === null ? '' : `; ${stream.total.ratioSse} to the SSE baseline`})`,
      stream.total.ratio <= TOTAL_RATIO[database],
    ),
    goal(
      'writes per turn independent of token count',
      'same rows and transactions for 200 and 2,000 tokens',
      `rows ${writes.text200.eventRows} / ${writes.text2000.eventRows}, transactions ${writes.text200.transactions} / ${writes.text2000.transactions}`,
      writes.text200.eventRows === writes.text2000.eventRows && writes.text200.transactions === writes.text2000.transactions,
    ),
    goal(
      'transactions for a plain text turn',
      '≤ 2',
      String(Math.max(writes.text200.transactions, writes.text2000.transactions)),
      Math.max(writes.text200.transactions, writes.text2000.transactions) <= 2,
    ),
    goal('reopen.ratio (MESSAGES_SNAPSHOT / bare read)', '≤ 2', `${reopen.ratio} (${reopen.snapshotMs} vs ${reopen.bareReadMs} ms)`, reopen.ratio <= 2),
    goal(`${concurrency.runs} concurrent runs: errors`, '0', String(concurrency.errors), concurrency.errors === 0),
    goal(
      `${concurrency.runs} concurrent runs: p99 time to first event`,
      '≤ 250 ms',
      `${concurrency.firstEvent.p99} ms (the bare AI SDK route, same burst: ${concurrency.bare.firstEvent.p99} ms)`,
      concurrency.firstEvent.p99 <= 250,
    ),
    goal(`RSS growth over ${memory.turns.count} turns`, '≤ 20 %', `${memory.turns.growthPercent} %`, memory.turns.growthPercent <= 20),
    goal(
      `view cache bounded (${memory.sessionsTouched.count} sessions touched)`,
      'second half of touches grows RSS ≤ 5 %',
      `${memory.sessionsTouched.secondHalfGrowthPercent} %`,
      memory.sessionsTouched.bounded,
    ),
  ];
  const { flood } = figures;
  const letThrough = Object.entries(flood.limits).map(([attack, limit]) => `${attack} ${flood.admitted[attack as keyof typeof flood.limits]} of ${limit}`);
  goals.push(
    goal(
      `flood from one address (${1 + flood.again.length} times, from as many): each attack let through up to its documented limit, no further`,
      'identities 20, streams 64, turns 32, wrong keys 10',
      letThrough.join(', '),
      (Object.keys(flood.limits) as (keyof typeof flood.limits)[]).every((attack) =>
        [flood.admitted, ...flood.again].every((admitted) => admitted[attack] === flood.limits[attack]),
      ),
    ),
    goal(
      `flood: /api/health p99 during it (${flood.health.samples} asks)`,
      '< 50 ms, none failed',
      `${flood.health.p99Ms} ms (max ${flood.health.maxMs} ms), ${flood.health.failures} failed`,
      flood.health.p99Ms < 50 && flood.health.failures === 0,
    ),
    goal(
      'flood: memory comes back (the live heap after the last flood over the one before, after a full collection: a leak grows it with every flood)',
      '≤ 5 %',
      `${flood.rss.lastFloodLiveGrowthPercent} % (${flood.rss.liveAfterEachMB.join(' → ')} MB live after each; RSS ${flood.rss.afterEachMB.join(' → ')} MB, ${flood.rss.lastFloodGrowthPercent} %)`,
      flood.rss.lastFloodLiveGrowthPercent <= 5,
    ),
  );
  if (database === 'sqlite') {
    goals.push(
      goal('approval round trip p50, AG-UI resume', '≤ 20 ms', `${approval.agui.p50} ms`, approval.agui.p50 <= 20),
      goal('approval round trip p50, /api/hitl', '≤ 20 ms', `${approval.hitl.p50} ms`, approval.hitl.p50 <= 20),
    );
  }
  return goals;
}

/** Scaling out on PostgreSQL: correctness on 1 and 4 instances; the ratios are reported, not judged. */
export function judgeScaleOut(scaleOut: ScaleOut): Goal[] {
  const judged = (run: ScaleOutRun): Goal[] => [
    {
      goal: `scale-out, ${run.instances} instance${run.instances === 1 ? '' : 's'}: ${run.sessions} sessions approved on ${run.instances === 1 ? 'it' : 'another instance'}, errors`,
      database: 'postgres',
      target: '0',
      measured: `${run.errors}${run.errorSamples[0] ? ` (${run.errorSamples[0]})` : ''}`,
      met: run.errors === 0,
    },
    {
      goal: `scale-out, ${run.instances} instance${run.instances === 1 ? '' : 's'}: exactly once (one approval, one start, one result, one refund per session)`,
      database: 'postgres',
      target: '0 violations',
      measured: `${run.exactlyOnceViolations}${run.violationSamples[0] ? ` (${run.violationSamples[0]})` : ''}`,
      met: run.exactlyOnceViolations === 0,
    },
  ];
  return [...judged(scaleOut.one), ...judged(scaleOut.four)];
}
