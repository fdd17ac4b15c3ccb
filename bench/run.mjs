#!/usr/bin/env node
// `npm run bench [-- --quick]`: the benchmarks of docs/benchmarks.md. They measure the production
// build (`next start`), so a build is made first when there is none, or when it predates the
// bench's baseline route (app/api/bench/bare); an existing build is reused, as a 2-minute build
// would not fit a 2-minute --quick. Then vitest runs bench/http.bench.ts (BENCH_MODE=quick|full).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--quick');
if (unknown.length > 0) {
  console.error(`Unknown argument(s): ${unknown.join(' ')}. Usage: npm run bench [-- --quick]`);
  process.exit(2);
}
const quick = args.includes('--quick');

function run(bin, argv, env = {}) {
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', ...bin), ...argv], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const built = existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(path.join(root, '.next', 'server', 'app', 'api', 'bench', 'bare'));
if (!built) {
  console.log('No production build with the bench route: running `next build` first.');
  run(['next', 'dist', 'bin', 'next'], ['build'], { NEXT_TELEMETRY_DISABLED: '1' });
}
run(['vitest', 'vitest.mjs'], ['run', '--config', 'bench/vitest.config.ts'], { BENCH_MODE: quick ? 'quick' : 'full' });
