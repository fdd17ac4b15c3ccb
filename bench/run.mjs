#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --build] [-- --publish]`: the benchmarks of docs/internals/benchmarks.md.
// A run writes its figures to bench/results/ (untracked); `--publish`, for a run on a quiet
// machine, also rewrites the committed ones (bench/results.json, docs/internals/benchmarks.md). They measure a
// production build (`next start`): the bench's own, made with STACKBONE_BENCH=1 into .next-bench/
// (next.config.ts), which alone has the bench's baseline route (app/api/bench/bare/route.bench.ts).
// It is made first when there is none, when it predates that route, or when --build asks; otherwise
// it is reused, as a 2-minute build would not fit a 2-minute --quick — and a build older than the
// code is named, since its figures would be the old code's. Then vitest runs bench/http.bench.ts
// (BENCH_MODE=quick|full), whose servers start with STACKBONE_BENCH=1 too (bench/lib/servers.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FLAGS = ['--quick', '--build', '--publish'];
const args = process.argv.slice(2);
const unknown = args.filter((arg) => !FLAGS.includes(arg));
if (unknown.length > 0) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}. Usage: npm run bench [-- --quick] [-- --build] [-- --publish]`);
  process.exit(2);
}
const quick = args.includes('--quick');

function run(bin, argv, env = {}) {
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', ...bin), ...argv], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The newest source file the build is made of, for a warning when it is newer than the build. */
function newestSource(dirs, files) {
  let newest = { file: '', mtimeMs: 0 };
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.includes('.test.')) {
        const { mtimeMs } = statSync(file);
        if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
      }
    }
  };
  for (const dir of dirs) visit(path.join(root, dir));
  for (const file of files.map((name) => path.join(root, name))) {
    const { mtimeMs } = statSync(file);
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

/** The bench's build (next.config.ts): its own directory, never the product's .next/, with the fixture agents it drives. */
const BENCH_ENV = { STACKBONE_BENCH: '1', STACKBONE_FIXTURE_AGENTS: '1' };
const distDir = path.join(root, '.next-bench');
const buildId = path.join(distDir, 'BUILD_ID');
const built = existsSync(buildId) && existsSync(path.join(distDir, 'server', 'app', 'api', 'bench', 'bare'));
if (!built || args.includes('--build')) {
  console.log(built ? 'Building first (--build).' : 'No bench build with the bench route: running `next build` with STACKBONE_BENCH=1 first.');
  run(['next', 'dist', 'bin', 'next'], ['build'], { NEXT_TELEMETRY_DISABLED: '1', ...BENCH_ENV });
} else {
  const newest = newestSource(['app', 'server', 'components'], ['bench/bare-route.ts', 'proxy.ts', 'instrumentation.ts', 'next.config.ts']);
  if (newest.mtimeMs > statSync(buildId).mtimeMs) {
    console.warn(
      `\n!!! The bench build in .next-bench/ is older than ${path.relative(root, newest.file)}: these figures are the build's, not the current code's. Run \`npm run bench -- --build\` (or \`STACKBONE_BENCH=1 npx next build\`) to measure the code as it is.\n`,
    );
  }
}
run(['vitest', 'vitest.mjs'], ['run', '--config', 'bench/vitest.config.ts'], {
  BENCH_MODE: quick ? 'quick' : 'full',
  BENCH_PUBLISH: args.includes('--publish') ? '1' : '0',
});
