// The real CLI (bin/stackbone.mjs) against a test server: its exit code and what it printed.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const cli = path.resolve('bin/stackbone.mjs');

export async function stackbone(url: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env: { ...process.env, STACKBONE_URL: url } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
