// `npm run dev`'s first run writes a STACKBONE_SECRET into .env (docs/approvals.md, "Signed
// receipts"), once, and never over one the developer set — on a copy of the script in a scratch
// project, as a new checkout runs it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./dev-secret.mjs', import.meta.url));

function project(files: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'stackbone-dev-secret-'));
  mkdirSync(path.join(root, 'scripts'));
  cpSync(script, path.join(root, 'scripts', 'dev-secret.mjs'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);
  return root;
}

const run = (root: string, env: Record<string, string> = {}) =>
  execFileSync(process.execPath, [path.join(root, 'scripts', 'dev-secret.mjs')], {
    env: { ...process.env, STACKBONE_SECRET: undefined, ...env } as NodeJS.ProcessEnv,
    encoding: 'utf8',
  });

describe('scripts/dev-secret.mjs', () => {
  it('writes a 32-byte secret into .env on the first run, keeping what was there, and nothing on the next', () => {
    const root = project({ '.env': 'STACKBONE_MODEL=scripted' });
    expect(run(root)).toContain('wrote a STACKBONE_SECRET into .env');
    const written = readFileSync(path.join(root, '.env'), 'utf8');
    expect(written).toMatch(/^STACKBONE_MODEL=scripted\n# Written by `npm run dev`.*\nSTACKBONE_SECRET=[0-9a-f]{64}\n$/);
    expect(run(root)).toBe('');
    expect(readFileSync(path.join(root, '.env'), 'utf8')).toBe(written);
  });

  it('leaves a secret set in the environment or in .env.local alone', () => {
    const fromEnv = project();
    expect(run(fromEnv, { STACKBONE_SECRET: 'mine' })).toBe('');
    const local = project({ '.env.local': 'export STACKBONE_SECRET=abc\n' });
    expect(run(local)).toBe('');
    expect(() => readFileSync(path.join(local, '.env'), 'utf8')).toThrow();
  });
});
