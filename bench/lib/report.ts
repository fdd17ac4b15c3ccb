// The outputs of a bench run: a table on stdout and bench/results/<mode>.json (untracked), and
// with `--publish` the committed figures, bench/results.json and docs/internals/benchmarks.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScaleOut } from '../measure/scale-out';
import type { DatabaseFigures, PerDatabase, Results } from './results';
import type { DatabaseKind } from './servers';

type Row = [item: string, metric: string, value: (figures: DatabaseFigures) => string | number];

const ROWS: Row[] = [
  [
    '8 set-up cost',
    `first token p50: ours / bare SSE (ms)`,
    (f) => `${f.setupCost.firstToken.oursMs} / ${f.setupCost.firstToken.bareMs} (+${f.setupCost.firstToken.deltaMs})`,
  ],
  [
    '8 set-up cost',
    'last byte p50: ours / bare SSE (ms)',
    (f) => `${f.setupCost.lastByte.oursMs} / ${f.setupCost.lastByte.bareMs} (× ${f.setupCost.lastByte.ratio})`,
  ],
  [
    '1 stream overhead',
    'first token p50: ours / bare text / bare SSE (ms)',
    (f) => `${f.streamOverhead.ttft.oursMs} / ${f.streamOverhead.ttft.bareMs} / ${f.streamOverhead.ttft.bareSseMs ?? '—'}`,
  ],
  [
    '1 stream overhead',
    'first token: ours − bare text / − bare SSE (ms)',
    (f) => `${f.streamOverhead.ttft.deltaMs} / ${f.streamOverhead.ttft.deltaSseMs ?? '—'}`,
  ],
  ['1 stream overhead', 'first token ratio: to bare text / to bare SSE', (f) => `${f.streamOverhead.ttft.ratio} / ${f.streamOverhead.ttft.ratioSse ?? '—'}`],
  [
    '1 stream overhead',
    'last byte p50: ours / bare text / bare SSE (ms)',
    (f) => `${f.streamOverhead.total.oursMs} / ${f.streamOverhead.total.bareMs} / ${f.streamOverhead.total.bareSseMs ?? '—'}`,
  ],
  ['1 stream overhead', 'last byte ratio: to bare text / to bare SSE', (f) => `${f.streamOverhead.total.ratio} / ${f.streamOverhead.total.ratioSse ?? '—'}`],
  ['2 writes per turn', '200 tokens: log rows / transactions', (f) => `${f.writesPerTurn.text200.eventRows} / ${f.writesPerTurn.text200.transactions}`],
  ['2 writes per turn', '2,000 tokens: log rows / transactions', (f) => `${f.writesPerTurn.text2000.eventRows} / ${f.writesPerTurn.text2000.transactions}`],
  [
    '2 writes per turn',
    '5-step tool turn: log rows / transactions',
    (f) => `${f.writesPerTurn.toolTurn5Steps.eventRows} / ${f.writesPerTurn.toolTurn5Steps.transactions}`,
  ],
  ['3 reopen', 'bare read / snapshot / hydration p50 (ms)', (f) => `${f.reopen.bareReadMs} / ${f.reopen.snapshotMs} / ${f.reopen.hydrationMs}`],
  ['3 reopen', 'ratio (snapshot / bare)', (f) => f.reopen.ratio],
  ['3 reopen', 'hydration ratio', (f) => f.reopen.hydrationRatio],
  ['3 reopen', 'cold snapshot (ms, ratio)', (f) => `${f.reopen.cold.snapshotMs} (${f.reopen.cold.ratio})`],
  ['4 concurrency', 'errors', (f) => `${f.concurrency.errors} of ${f.concurrency.runs}`],
  ['4 concurrency', 'first event p50 / p99 (ms)', (f) => `${f.concurrency.firstEvent.p50} / ${f.concurrency.firstEvent.p99}`],
  ['4 concurrency', 'turns per second', (f) => f.concurrency.turnsPerSecond],
  [
    '4 concurrency',
    'bare AI SDK route, same burst: first event p50 / p99 (ms)',
    (f) => `${f.concurrency.bare.firstEvent.p50} / ${f.concurrency.bare.firstEvent.p99}`,
  ],
  ['4 concurrency', 'first event p99, ours / bare', (f) => f.concurrency.firstEventP99Ratio],
  ['5 approval', 'AG-UI resume → result p50 / p99 (ms)', (f) => `${f.approvalRoundTrip.agui.p50} / ${f.approvalRoundTrip.agui.p99}`],
  ['5 approval', '/api/hitl → result p50 / p99 (ms)', (f) => `${f.approvalRoundTrip.hitl.p50} / ${f.approvalRoundTrip.hitl.p99}`],
  [
    '6 memory',
    'RSS before → after turns (MB)',
    (f) => `${f.memory.turns.rssBeforeMB} → ${f.memory.turns.rssAfterMB} (${f.memory.turns.count} turns, ${f.memory.turns.growthPercent} %)`,
  ],
  [
    '6 memory',
    'RSS sessions touched: 0 / half / all (MB)',
    (f) =>
      `${f.memory.sessionsTouched.rssBeforeMB} / ${f.memory.sessionsTouched.rssHalfwayMB} / ${f.memory.sessionsTouched.rssAfterMB} (${f.memory.sessionsTouched.count})`,
  ],
  ['7 fan-out', `send → each follower p50 / p99 (ms)`, (f) => `${f.fanout.sendToSubscriber.p50} / ${f.fanout.sendToSubscriber.p99}`],
  ['7 fan-out', 'sender → each follower p50 / p99 (ms)', (f) => `${f.fanout.afterSender.p50} / ${f.fanout.afterSender.p99}`],
  [
    '10 flood',
    'let through: identities / streams / turns / wrong keys',
    (f) => `${f.flood.admitted.identities} / ${f.flood.admitted.streams} / ${f.flood.admitted.runs} / ${f.flood.admitted.wrongKeys}`,
  ],
  ['10 flood', '/api/health during it p50 / p99 / max (ms)', (f) => `${f.flood.health.p50Ms} / ${f.flood.health.p99Ms} / ${f.flood.health.maxMs}`],
  ['10 flood', 'RSS before / peak / after each flood (MB)', (f) => `${f.flood.rss.beforeMB} / ${f.flood.rss.peakMB} / ${f.flood.rss.afterEachMB.join(' → ')}`],
  ['10 flood', 'live heap after each flood, after a full collection (MB)', (f) => f.flood.rss.liveAfterEachMB.join(' → ')],
];

function scaleOutRows(scaleOut: ScaleOut): string[][] {
  return [scaleOut.one, scaleOut.four].map((run) => [
    String(run.instances),
    `${run.sessions} (${run.window} in flight)`,
    String(run.errors),
    String(run.exactlyOnceViolations),
    `${run.firstEvent.p50} / ${run.firstEvent.p99}`,
    `${run.decisionToResult.p50} / ${run.decisionToResult.p99}`,
    String(run.turnsPerSecond),
    String(run.database.transactionsPerTurn),
    String(run.database.connectionsPerInstance),
    String(run.database.idleTransactionsPerSecondPerInstance),
    `${run.database.logBytesPerTurn} (${run.database.logRowsPerTurn} rows)`,
  ]);
}

const SCALE_OUT_HEADER = [
  'instances',
  'sessions',
  'errors',
  'exactly-once violations',
  'first event p50 / p99 (ms)',
  'decision → result p50 / p99 (ms)',
  'turns/s',
  'db transactions / turn',
  'connections / instance',
  'idle transactions / s / instance',
  'log bytes / turn',
];

function tableRows(figures: PerDatabase<DatabaseFigures>, databases: DatabaseKind[]): string[][] {
  return ROWS.map(([item, metric, value]) => [item, metric, ...databases.map((db) => String(figures[db] ? value(figures[db]) : '—'))]);
}

function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function printReport(results: Results, figures: PerDatabase<DatabaseFigures>): void {
  const header = ['item', 'metric', ...results.databases];
  console.log(
    `\nstackbone bench (${results.mode}), ${results.date}, ${results.machine.cpu} × ${results.machine.cores}, Node ${results.node}, ${results.durationSeconds} s\n`,
  );
  console.log(textTable(header, tableRows(figures, results.databases)));
  console.log('\nin process, a 500-token turn:');
  console.log(
    textTable(
      ['variant', 'ms/turn', '× bare'],
      results.streamOverhead.inProcess.rows.map((row) => [row.variant, String(row.msPerTurn), String(row.ratio)]),
    ),
  );
  if (results.scaleOut) {
    console.log('\nscale-out on PostgreSQL (item 9):');
    console.log(textTable(SCALE_OUT_HEADER, scaleOutRows(results.scaleOut)));
  }
  console.log('\ngoals:');
  console.log(
    textTable(
      ['', 'db', 'goal', 'target', 'measured'],
      results.goals.map((g) => [g.met ? 'met' : 'MISS', g.database, g.goal, g.target, g.measured]),
    ),
  );
  if (results.postgresSkipped) console.log(`\n!!! PostgreSQL skipped: ${results.postgresSkipped}`);
}

/** Every run's figures, in an untracked file (.gitignore): a run leaves the working tree as it was. Answers its path. */
export function writeResults(root: string, results: Results): string {
  const dir = path.join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${results.mode}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return path.relative(root, file);
}

/** `--publish`: the committed figures, bench/results.json and docs/internals/benchmarks.md (run it on a quiet machine). */
export function publishResults(root: string, results: Results, figures: PerDatabase<DatabaseFigures>, method: string): void {
  writeFileSync(path.join(root, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeBenchmarksDoc(root, results, figures, method);
}

function writeBenchmarksDoc(root: string, results: Results, figures: PerDatabase<DatabaseFigures>, method: string): void {
  const header = ['item', 'metric', ...results.databases];
  const doc = [
    '# Benchmarks',
    '',
    '<!-- Written by `npm run bench -- --publish` (bench/lib/report.ts); edit the method in bench/lib/method.ts. -->',
    '',
    `Last run: **${results.mode}** mode, ${results.date}, ${results.durationSeconds} s.`,
    `Machine: ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.memoryGB} GB, ${results.machine.os}; Node ${results.node}.`,
    results.postgresSkipped
      ? `PostgreSQL was skipped: ${results.postgresSkipped}.`
      : 'Databases: SQLite and PostgreSQL, each behind its own `next start` of the same production build.',
    '',
    markdownTable(header, tableRows(figures, results.databases)),
    '',
    '## Goals',
    '',
    markdownTable(
      ['', 'database', 'goal', 'target', 'measured'],
      results.goals.map((g) => [g.met ? 'met' : '**miss**', g.database, g.goal, g.target, g.measured]),
    ),
    '',
    ...(results.scaleOut
      ? [
          '## Scaling out: 1 and 4 instances on one PostgreSQL (item 9, docs/scaling.md)',
          '',
          markdownTable(SCALE_OUT_HEADER, scaleOutRows(results.scaleOut)),
          '',
          `4 instances over 1: first event p99 × ${results.scaleOut.firstEventP99Ratio}, turns per second × ${results.scaleOut.turnsPerSecondRatio}.`,
          '',
        ]
      : []),
    '## In process (a 500-token turn, as `npm run bench` measured before)',
    '',
    markdownTable(
      ['variant', 'ms per turn', '× bare model'],
      results.streamOverhead.inProcess.rows.map((row) => [row.variant, String(row.msPerTurn), String(row.ratio)]),
    ),
    '',
    method.trim(),
    '',
  ].join('\n');
  writeFileSync(path.join(root, 'docs', 'internals', 'benchmarks.md'), doc);
}
