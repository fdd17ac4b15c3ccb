#!/usr/bin/env node
// `npm test`: the whole suite, in the order that lets each stage reuse the last one's
// work — static checks, unit tests, one production build, then integration tests against
// real servers (SQLite and Postgres) and e2e in a real browser, both on that build.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CHECKPOINT_DISABLE: '1', STACKBONE_MODEL: 'scripted' };

const stages = [
  ['typecheck', bin('tsc'), ['--noEmit']],
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
  // The formatter's check (`npm run format` writes what it would change) and unused exports or files.
  ['format', bin('prettier'), ['--check', '--log-level=warn', '**/*.{ts,tsx,mjs}']],
  ['unused', bin('knip'), ['--no-progress']],
  ['unit', bin('vitest'), ['run', '--project', 'unit']],
  ['build', bin('next'), ['build']],
  ['integration', bin('vitest'), ['run', '--project', 'integration']],
  ['e2e', bin('playwright'), ['test']],
];

const only = process.argv.slice(2);
for (const [name, command, args] of stages) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  console.log(`\n▶ ${name}: ${path.basename(command)} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed after ${seconds} s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} passed in ${seconds} s`);
}
