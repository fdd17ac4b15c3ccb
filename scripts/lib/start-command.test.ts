// `npm start`'s command (scripts/start.mjs, scripts/lib/start-command.ts): Node accepts every flag
// it is given on the Node this runs on, and the start script hands `next start` its arguments.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { asyncContextFrameFlag } from './start-command';

const startScript = fileURLToPath(new URL('../start.mjs', import.meta.url));

describe('npm start', () => {
  it('starts `next start` with the flags this Node accepts, passing its own arguments on', () => {
    // `--help` answers without a build, a database or a port.
    const started = spawnSync(process.execPath, [startScript, '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(started.stderr).not.toMatch(/bad option|not allowed/);
    expect(started.status).toBe(0);
    expect(started.stdout).toMatch(/Usage: next start/);
  });

  it('keeps AsyncLocalStorage on async context frames below Node 24, which has them by default and refuses the flag', () => {
    expect(asyncContextFrameFlag('22.18.0')).toEqual(['--experimental-async-context-frame']);
    expect(asyncContextFrameFlag('24.0.0')).toEqual([]);
    expect(asyncContextFrameFlag('25.2.1')).toEqual([]);
  });
});
