// A real Next server for integration tests: `next start` from the one build the test
// script makes, on its own port and database. Tests may kill it (SIGKILL) and start it again.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

export function assertBuilt(): void {
  if (!existsSync(path.join(repoRoot, '.next', 'BUILD_ID'))) {
    throw new Error('No Next build found: run `npx next build` first (npm test does it for you).');
  }
}

/**
 * STACKBONE_TEST_PORT_OFFSET shifts every test server's port, so that two checkouts of the repo
 * (git worktrees) can run their suites side by side on one machine.
 */
export function testPort(port: number): number {
  return port + (Number(process.env.STACKBONE_TEST_PORT_OFFSET) || 0);
}

export async function startServer(options: { port: number; databaseUrl: string; env?: Record<string, string> }): Promise<TestServer> {
  assertBuilt();
  options = { ...options, port: testPort(options.port) };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    STACKBONE_MODEL: 'scripted',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(options.port),
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, [nextBin, 'start', '-p', String(options.port), '-H', '127.0.0.1'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 30_000;
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
      throw new Error(`The test server did not become ready in 30 s:\n${output}`);
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
        await exited;
      }
    },
  };
}
