// A real Next server for integration tests: `next start` from the one build the test
// script makes, on its own port and database. Tests may kill it (SIGKILL) and start it again.
// `dev: true` runs `next dev` instead (what `npm run dev` runs), for what only a development
// server does (open dev mode's loopback rule, docs/security.md).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextStartArgs } from '../../scripts/lib/start-command';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const nextBin = path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next');

export interface TestServer {
  url: string;
  port: number;
  databaseUrl: string;
  /** The `next start` process's id (the bench reads its memory). */
  pid: number;
  /** Everything the server printed, for assertions and failure reports. */
  output(): string;
  /** Settles when the process has exited, by itself or killed: how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Throws unless the build a server would start from exists: the product's in .next/, or with
 * STACKBONE_BENCH=1 the bench's own in .next-bench/ (next.config.ts; `npm run bench` makes it).
 */
function assertBuilt(env: NodeJS.ProcessEnv = process.env): void {
  const bench = env.STACKBONE_BENCH === '1';
  if (!existsSync(path.join(repoRoot, bench ? '.next-bench' : '.next', 'BUILD_ID'))) {
    throw new Error(
      bench
        ? 'No bench build found: `npm run bench` makes it (STACKBONE_BENCH=1 npx next build).'
        : 'No Next build found: run `STACKBONE_FIXTURE_AGENTS=1 npx next build` first, for the fixture agents (npm test does it for you).',
    );
  }
}

/** The integration worker this runs in: VITEST_POOL_ID, 1 to maxWorkers (vitest.config.ts); 1 outside a worker. */
export function workerSlot(): number {
  return Math.max(1, Number(process.env.VITEST_POOL_ID) || 1);
}

/**
 * STACKBONE_TEST_PORT_OFFSET shifts every test server's port, so that two checkouts of the repo
 * (git worktrees) can run their suites side by side on one machine. Integration files run two at
 * a time (vitest.config.ts): the second worker's servers sit 10000 ports higher (13xxx: clear of the
 * machine's own services, e.g. NATS on 4222), so two files that chose the same port never meet.
 */
export function testPort(port: number, slot: number = workerSlot()): number {
  return port + (slot - 1) * 10_000 + (Number(process.env.STACKBONE_TEST_PORT_OFFSET) || 0);
}

/** `slot`: the worker whose ports it takes (default: this one's); the global setup starts servers for each. */
export async function startServer(options: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
  dev?: boolean;
  slot?: number;
}): Promise<TestServer> {
  options = { ...options, port: testPort(options.port, options.slot) };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: options.dev ? 'development' : 'production',
    DATABASE_URL: options.databaseUrl,
    STACKBONE_MODEL: 'scripted',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(options.port),
    // A production server without STACKBONE_API_KEYS starts only with this opt-in (docs/security.md,
    // "Modes"); most test servers are open ones. A keyed server ignores it.
    STACKBONE_ALLOW_OPEN_ACCESS: '1',
    // The agents the suite drives are the fixtures' (tests/fixtures/agents/), which the tests' build has.
    STACKBONE_FIXTURE_AGENTS: '1',
    ...options.env,
  };
  if (!options.dev) assertBuilt(env);
  // As `npm start` runs it, with its flags and preloads.
  const args = options.dev ? [nextBin, 'dev'] : nextStartArgs(repoRoot);
  const child: ChildProcess = spawn(process.execPath, [...args, '-p', String(options.port), '-H', '127.0.0.1'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${options.port}`;
  // `next dev` compiles each route on its first request.
  const readyMs = options.dev ? 90_000 : 30_000;
  const deadline = Date.now() + readyMs;
  while (true) {
    if (child.exitCode !== null) throw new Error(`The test server exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The test server did not become ready in ${readyMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port: options.port,
    databaseUrl: options.databaseUrl,
    pid: child.pid!,
    output: () => output,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        // Next waits for open connections on SIGTERM; a test that failed may leave a stream open.
        const stuck = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(stuck);
      }
    },
  };
}
