#!/usr/bin/env node
// `npm run demo:remove` (docs/make-it-yours.md, "2. Remove the demo"): takes the demo out of the
// app — its folder (examples/demo/: agents, data, MCP server, tables, its own tests), its route
// (app/api/demo/), its line in the agent registry, its table (a new migration for each database),
// its README section — and prints what it did. The product and the suite stay whole: the tests
// drive agents of their own (tests/fixtures/agents/). It refuses on a tree with uncommitted changes
// unless `--force`, so the removal is a commit of its own; run again, it finds nothing to do.
// `--root <dir>` works on another copy of the app (a test's, CI's).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createMigrations, hasUnmigratedChanges } from './lib/new-migrations.mjs';

/** The registry's demo lines end with this comment (server/agents/index.ts). */
const REGISTRY_MARK = '// The demo (examples/demo/';
/** The demo's README section sits between these two comments. */
const README_START = '<!-- demo:start -->';
const README_END = '<!-- demo:end -->';
/** The demo's tables in prisma/schema.prisma, each with its doc comment (which names examples/demo/). */
const DEMO_MODELS = ['Refund'];

/** Removes a model and the `///` comment above it from a Prisma schema; answers the schema unchanged when it has none. */
export function withoutModel(schema, model) {
  const lines = schema.split('\n');
  const start = lines.findIndex((line) => line.trim() === `model ${model} {`);
  if (start === -1) return schema;
  let from = start;
  while (from > 0 && lines[from - 1].startsWith('///')) from--;
  let to = start;
  while (to < lines.length && lines[to].trim() !== '}') to++;
  // The blank line after the block goes with it.
  if (lines[to + 1] === '') to++;
  return [...lines.slice(0, from), ...lines.slice(to + 1)].join('\n');
}

/** Text between two markers (the markers too, and one blank line after), gone. */
export function withoutSection(text, start, end) {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1 || to < from) return text;
  return text.slice(0, from) + text.slice(to + end.length).replace(/^\n+/, '');
}

function dirty(root) {
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, encoding: 'utf8' });
  // Not a checkout of its own (an unpacked download, a copy inside another): nothing to tell apart.
  if (top.status !== 0 || path.resolve(top.stdout.trim()) !== path.resolve(root)) return false;
  return spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).stdout.trim() !== '';
}

/** Whether anything of the demo is left: its folders, its registry line, its README section, its tables or their migration. */
function demoLeft(root) {
  const has = (relative) => existsSync(path.join(root, relative));
  const text = (relative) => (has(relative) ? readFileSync(path.join(root, relative), 'utf8') : '');
  return (
    has('examples/demo') ||
    has('app/api/demo') ||
    text('server/agents/index.ts').includes(REGISTRY_MARK) ||
    text('README.md').includes(README_START) ||
    DEMO_MODELS.some((model) => text('prisma/schema.prisma').includes(`model ${model} {`)) ||
    hasUnmigratedChanges(root)
  );
}

export function removeDemo(root, { force = false, log = console.log } = {}) {
  if (!demoLeft(root)) return { ok: true, message: 'The demo is already removed: nothing to do.' };
  if (!force && dirty(root)) {
    return { ok: false, message: 'The tree has uncommitted changes: commit or stash them first, so the removal is a commit of its own (or run with --force).' };
  }
  const done = [];
  const remove = (relative, what) => {
    const target = path.join(root, relative);
    if (!existsSync(target)) return;
    rmSync(target, { recursive: true, force: true });
    done.push(`removed ${relative}${what ? ` (${what})` : ''}`);
  };
  remove('examples/demo', "the demo's agents, data, MCP server, table code and tests");
  if (existsSync(path.join(root, 'examples')) && readdirSync(path.join(root, 'examples')).length === 0) remove('examples');
  remove('app/api/demo', "the demo MCP server's route");

  const edit = (relative, change, what) => {
    const file = path.join(root, relative);
    if (!existsSync(file)) return;
    const before = readFileSync(file, 'utf8');
    const after = change(before);
    if (after === before) return;
    writeFileSync(file, after);
    done.push(`edited ${relative} (${what})`);
  };
  const withoutLines = (mark) => (text) =>
    text
      .split('\n')
      .filter((line) => !line.includes(mark))
      .join('\n');
  edit('server/agents/index.ts', withoutLines(REGISTRY_MARK), "the demo's agents are no longer listed");
  edit('vitest.config.ts', withoutLines("'examples/demo/"), "the demo's tests are no longer named");
  edit('README.md', (text) => withoutSection(text, README_START, README_END), 'the "Try the demo" section');

  edit(
    'prisma/schema.prisma',
    (text) => DEMO_MODELS.reduce(withoutModel, text),
    `the demo's table${DEMO_MODELS.length > 1 ? 's' : ''}: ${DEMO_MODELS.join(', ')}`,
  );
  // Asked of the schema, not of this run's edit: a run stopped before its migration writes it the next time.
  if (hasUnmigratedChanges(root)) {
    const folder = createMigrations(root, 'remove_demo');
    if (folder) done.push(`created prisma/migrations/${folder} and prisma/postgres/migrations/${folder} (they drop the demo's table)`);
    const generated = spawnSync(process.execPath, [path.join(root, 'scripts', 'db.mjs'), 'generate'], { cwd: root, stdio: 'ignore' });
    if (generated.status !== 0)
      return {
        ok: false,
        message: `The demo is out, but \`node scripts/db.mjs generate\` failed: run it to regenerate the Prisma clients.\n${done.join('\n')}`,
      };
    done.push('regenerated the Prisma clients');
  }

  const after = [
    'The demo is removed:',
    ...done.map((line) => `  - ${line}`),
    '',
    'Next: `npm run agent:new -- <name>` writes your first agent (docs/make-it-yours.md), and the next `npm run dev` or `npm start` applies the new migration to your database.',
  ];
  log(after.join('\n'));
  return { ok: true, message: '' };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { force: { type: 'boolean' }, root: { type: 'string' } } });
  const root = path.resolve(values.root ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const result = removeDemo(root, { force: values.force });
  if (result.message) (result.ok ? console.log : console.error)(result.message);
  process.exit(result.ok ? 0 : 1);
}
