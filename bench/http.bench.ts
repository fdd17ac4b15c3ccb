// `npm run bench` (bench/run.mjs): the measurements of docs/internals/benchmarks.md, in one run, on SQLite
// and (when a server answers) PostgreSQL. In-process figures first, with no server up; then one
// production server per database, one at a time, measured over HTTP; then, on PostgreSQL, 1 and 4
// instances behind a balancer. Nothing here asserts on time: the goals are judged and reported,
// met or missed. Results go to bench/results/ (untracked); `--publish` (BENCH_PUBLISH=1) also
// writes the committed figures, bench/results.json and docs/internals/benchmarks.md.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { judgeGoals, judgeScaleOut } from './lib/goals';
import { METHOD } from './lib/method';
import { counts, mode } from './lib/mode';
import { printReport, publishResults, writeResults } from './lib/report';
import type { DatabaseFigures, PerDatabase, Results } from './lib/results';
import { benchDatabases, freshDatabase, startBenchServer, type BenchDatabase } from './lib/servers';
import { round } from './lib/stats';
import { measureApprovalRoundTrip } from './measure/approval';
import { measureConcurrency } from './measure/concurrency';
import { measureFanout } from './measure/fanout';
import { measureFlood } from './measure/flood';
import { measureInProcess } from './measure/in-process';
import { measureMemory } from './measure/memory';
import { measureReopen } from './measure/reopen';
import { measureScaleOut, type ScaleOut } from './measure/scale-out';
import { measureSetupCost } from './measure/setup-cost';
import { measureStreamOverhead } from './measure/stream-overhead';
import { measureWritesPerTurn } from './measure/writes-per-turn';

const root = fileURLToPath(new URL('..', import.meta.url));
const sqliteDirs: string[] = [];

async function database(kind: BenchDatabase['kind'], schema?: string): Promise<BenchDatabase> {
  const created = await freshDatabase(kind, schema);
  if (kind === 'sqlite') sqliteDirs.push(path.dirname(created.url.replace(/^file:/, '')));
  return created;
}

async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`  ${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

it(`measures the runtime against bare baselines (${mode})`, async () => {
  const started = performance.now();
  const { databases, postgresSkipped } = await benchDatabases();
  if (postgresSkipped) console.warn(`\n!!! PostgreSQL not reachable (${postgresSkipped}): its half of the bench is skipped.\n`);
  const figures: PerDatabase<DatabaseFigures> = {};
  try {
    const inProcessDatabases = await Promise.all(databases.map((kind) => database(kind, 'stackbone_bench_inproc')));
    const inProcess = await step('in process, every store', () => measureInProcess(inProcessDatabases));
    for (const db of inProcessDatabases) {
      const writesPerTurn = await step(`${db.kind}: writes per turn`, () => measureWritesPerTurn(db));
      const served = await database(db.kind);
      const server = await step(`${db.kind}: next start`, () => startBenchServer(served));
      let measured: Omit<DatabaseFigures, 'flood'>;
      try {
        const setupCost = await step(`${db.kind}: set-up cost`, () => measureSetupCost(server.url));
        const streamOverhead = await step(`${db.kind}: stream overhead`, () => measureStreamOverhead(server.url));
        const reopen = await step(`${db.kind}: reopen`, () => measureReopen(server.url, served));
        const approvalRoundTrip = await step(`${db.kind}: approval round trip`, () => measureApprovalRoundTrip(server.url));
        const fanout = await step(`${db.kind}: fan-out`, () => measureFanout(server.url));
        const concurrency = await step(`${db.kind}: concurrency`, () => measureConcurrency(server.url));
        // Last: it fills the server's view cache on purpose.
        const memory = await step(`${db.kind}: memory`, () => measureMemory(server.url, server.pid, served));
        measured = { setupCost, streamOverhead, writesPerTurn, reopen, concurrency, approvalRoundTrip, memory, fanout };
      } catch (error) {
        console.error(`The ${db.kind} server printed:\n${server.output().slice(-4000)}`);
        throw error;
      } finally {
        await server.kill();
      }
      // Its own server, keyed and open to browsers, on a database of its own (bench/measure/flood.ts).
      const flood = await step(`${db.kind}: flood`, async () => measureFlood(await database(db.kind, 'stackbone_bench_flood')));
      figures[db.kind] = { ...measured, flood };
    }

    const scaleOut: ScaleOut | null = databases.includes('postgres') ? await step('postgres: 1 and 4 instances', measureScaleOut) : null;

    const sqlite = figures.sqlite!;
    const perDatabase = <T>(pick: (f: DatabaseFigures) => T): PerDatabase<T> => Object.fromEntries(databases.map((kind) => [kind, pick(figures[kind]!)]));
    const results: Results = {
      mode,
      date: new Date().toISOString(),
      durationSeconds: round((performance.now() - started) / 1000, 1),
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cores: os.cpus().length,
        memoryGB: round(os.totalmem() / 2 ** 30, 1),
        os: `${os.type()} ${os.release()} ${os.arch()}`,
      },
      node: process.versions.node,
      databases,
      postgresSkipped,
      streamOverhead: {
        tokens: counts.streamTokens,
        runs: counts.streamRuns,
        ttft: { ...sqlite.streamOverhead.ttft, ...perDatabase((f) => f.streamOverhead.ttft) },
        total: { ...sqlite.streamOverhead.total, ...perDatabase((f) => f.streamOverhead.total) },
        inProcess,
      },
      writesPerTurn: perDatabase((f) => f.writesPerTurn),
      reopen: { ...sqlite.reopen, ...perDatabase((f) => f.reopen) },
      concurrency: perDatabase((f) => f.concurrency),
      approvalRoundTrip: perDatabase((f) => f.approvalRoundTrip),
      memory: perDatabase((f) => f.memory),
      fanout: perDatabase((f) => f.fanout),
      setupCost: perDatabase((f) => f.setupCost),
      flood: perDatabase((f) => f.flood),
      scaleOut,
      goals: [...databases.flatMap((kind) => judgeGoals(kind, figures[kind]!, inProcess.rows)), ...(scaleOut ? judgeScaleOut(scaleOut) : [])],
    };
    const written = writeResults(root, results);
    if (process.env.BENCH_PUBLISH === '1') publishResults(root, results, figures, METHOD);
    printReport(results, figures);
    console.log(
      `\nResults: ${written}${process.env.BENCH_PUBLISH === '1' ? ', bench/results.json and docs/internals/benchmarks.md' : ' (`--publish` also writes bench/results.json and docs/internals/benchmarks.md)'}`,
    );
    expect(results.goals.length).toBeGreaterThan(0);
  } finally {
    for (const dir of sqliteDirs) rmSync(dir, { recursive: true, force: true });
  }
});
