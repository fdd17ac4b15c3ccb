#!/usr/bin/env node
// `npm test`: the whole suite, in the order that lets each stage reuse the last one's
// work — static checks, unit tests, one production build, then integration tests against
// real servers (SQLite and Postgres) and e2e in a real browser, both on that build.
//
// Stages in one group run side by side (README, "Tests"): the static checks, each one
// single-threaded process (the unit tests beside them ran slower than after them: the CLI's
// timed answers fell behind). A side-by-side stage's lines are prefixed with its name; each
// stage's result is printed as it ends, and every stage's time once more at the end — passed or
// not — so a slow stage is seen without scrolling. Names given on the command line run only
// those stages: `npm run test:quick` is the static checks and the unit tests.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CHECKPOINT_DISABLE: '1', STACKBONE_MODEL: 'scripted' };

const groups = [
  [
    // Route types first (`next typegen`), so that tsc checks route handlers' signatures as the build would.
    ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
    ['lint', bin('eslint'), ['.', '--max-warnings=0']],
    // The formatter's check (`npm run format` writes what it would change) and unused exports or files.
    ['format', bin('prettier'), ['--check', '--log-level=warn', '**/*.{ts,tsx,mjs}']],
    ['unused', bin('knip'), ['--no-progress']],
  ],
  [['unit', bin('vitest'), ['run', '--project', 'unit', '--project', 'unit-own-process']]],
  // With the tests' fixture agents in the registry (next.config.ts); servers list them only when started with the same variable.
  [['build', bin('next'), ['build'], { STACKBONE_FIXTURE_AGENTS: '1' }]],
  // One after the other: beside the integration suite's servers, the browser falls behind the
  // streams the e2e specs time (a stop must land mid-reply), and both suites ran slower in all.
  [['integration', bin('vitest'), ['run', '--project', 'integration']]],
  [['e2e', bin('playwright'), ['test']]],
];

/** Each stage that ran: its name, seconds and whether it passed, for the summary. */
const timings = [];
const suiteStarted = Date.now();

/** `12:34`, rounded to the second first (179.6 s is 3:00, not 2:60). */
const clock = (seconds) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

function summary() {
  const stages = timings.map(({ name, seconds, passed }) => `${passed ? '' : '✖ '}${name} ${clock(seconds)}`).join(' · ');
  console.log(`\nStage times: ${stages} · total ${clock((Date.now() - suiteStarted) / 1000)} (side-by-side stages overlap)`);
}

/** Runs one stage; its output goes straight through, or line by line under its name when others run beside it. */
function run([name, command, args, stageEnv = {}], prefixed) {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${path.basename(command)} ${args.join(' ')}`);
  const child = spawn(command, args, { cwd: root, env: { ...env, ...stageEnv }, stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (prefixed) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
    }
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const elapsed = (Date.now() - started) / 1000;
      timings.push({ name, seconds: elapsed, passed: code === 0 });
      const seconds = elapsed.toFixed(1);
      if (code === 0) console.log(`✔ ${name} passed in ${seconds} s`);
      else console.error(`\n✖ ${name} failed after ${seconds} s${signal ? ` (${signal})` : ''}`);
      resolve(code === 0);
    });
  });
}

const only = process.argv.slice(2);
for (const group of groups) {
  const stages = group.filter(([name]) => !only.length || only.includes(name));
  if (!stages.length) continue;
  const results = await Promise.all(stages.map((stage) => run(stage, stages.length > 1)));
  if (results.includes(false)) {
    summary();
    process.exit(1);
  }
  // The build need not check the same files again (next.config.ts).
  if (stages.some(([name]) => name === 'typecheck')) env.STACKBONE_TYPES_CHECKED = '1';
}
summary();
