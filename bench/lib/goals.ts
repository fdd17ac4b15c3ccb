// The issue's goals, each judged on figures of the same run, per database.
import type { DatabaseFigures, Goal } from './results';
import type { DatabaseKind } from './servers';

const TTFT_BUDGET_MS: Record<DatabaseKind, number> = { sqlite: 2, postgres: 5 };
const TOTAL_RATIO: Record<DatabaseKind, number> = { sqlite: 1.1, postgres: 1.25 };

export function judgeGoals(database: DatabaseKind, figures: DatabaseFigures): Goal[] {
  const goal = (text: string, target: string, measured: string, met: boolean): Goal => ({ goal: text, database, target, measured, met });
  const { streamOverhead: stream, writesPerTurn: writes, reopen, concurrency, approvalRoundTrip: approval, memory } = figures;
  const goals = [
    // Judged against the text-stream baseline, the stricter of the two (docs/benchmarks.md).
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
  if (database === 'sqlite') {
    goals.push(
      goal('approval round trip p50, AG-UI resume', '≤ 20 ms', `${approval.agui.p50} ms`, approval.agui.p50 <= 20),
      goal('approval round trip p50, /api/hitl', '≤ 20 ms', `${approval.hitl.p50} ms`, approval.hitl.p50 <= 20),
    );
  }
  return goals;
}
