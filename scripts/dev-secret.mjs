#!/usr/bin/env node
// Run by `npm run dev` (predev): on the first run, writes a STACKBONE_SECRET into .env, so the
// approval receipts a dev server signs (a key derived from it) still verify after a restart, and
// approval links stay valid across restarts (docs/approvals.md, "Signed receipts"). Nothing is
// written when the secret is set already — in the environment or in any .env file Next reads.
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENV_FILES = ['.env', '.env.local', '.env.development', '.env.development.local'];
const SETS_SECRET = /^\s*(?:export\s+)?STACKBONE_SECRET\s*=\s*\S/m;

function alreadySet() {
  if (process.env.STACKBONE_SECRET?.trim()) return true;
  return ENV_FILES.some((name) => {
    const file = path.join(root, name);
    return existsSync(file) && SETS_SECRET.test(readFileSync(file, 'utf8'));
  });
}

if (!alreadySet()) {
  const file = path.join(root, '.env');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const gap = before && !before.endsWith('\n') ? '\n' : '';
  appendFileSync(
    file,
    `${gap}# Written by \`npm run dev\` on its first run: signs approval receipts and links (docs/approvals.md, "Signed receipts").\nSTACKBONE_SECRET=${randomBytes(32).toString('hex')}\n`,
  );
  console.log('[stackbone] wrote a STACKBONE_SECRET into .env (approval receipts and links are signed with it).');
}
