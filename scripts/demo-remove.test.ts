// `npm run demo:remove` (scripts/demo-remove.mjs), run as a child process against a copy of the
// files it changes (--root): the demo's folder, route, registry line, README section and table
// go, each database gets a migration dropping the table, and a second run finds nothing to do.
// CI runs it on a whole clone too, then the static checks and the unit tests there (.ci/run).
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = path.join(root, 'scripts', 'demo-remove.mjs');
/** What the script reads and writes, copied (what is there of it); node_modules linked (Prisma runs from it). */
const COPIED = ['examples', 'app/api/demo', 'server/agents/index.ts', 'vitest.config.ts', 'README.md', 'prisma', 'prisma.config.ts', 'scripts', 'package.json'];
/** The demo is here until `npm run demo:remove` has run on this checkout; then there is nothing of it to remove. */
const demoHere = existsSync(path.join(root, 'examples', 'demo'));

const copies: string[] = [];
function appCopy(): string {
  const dir = mkdtempSync(path.join(root, '.data', 'demo-remove-'));
  for (const entry of COPIED) if (existsSync(path.join(root, entry))) cpSync(path.join(root, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  copies.push(dir);
  return dir;
}

function demoRemove(dir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, '--root', dir, ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');
const migrationsOf = (dir: string, folder: string) => readdirSync(path.join(dir, folder)).filter((entry) => /^\d{14}_/.test(entry));

beforeAll(() => mkdirSync(path.join(root, '.data'), { recursive: true }));
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('demo:remove', () => {
  it.skipIf(!demoHere)(
    'takes out the demo, drops its table on both databases, says what it did, and a second run does nothing',
    { timeout: 180_000 },
    async () => {
      const dir = appCopy();
      const before = { sqlite: migrationsOf(dir, 'prisma/migrations'), postgres: migrationsOf(dir, 'prisma/postgres/migrations') };
      const first = await demoRemove(dir);
      expect(first.output).toContain('The demo is removed:');
      expect(first.code).toBe(0);
      expect(existsSync(path.join(dir, 'examples'))).toBe(false);
      expect(existsSync(path.join(dir, 'app/api/demo'))).toBe(false);
      expect(read(dir, 'server/agents/index.ts')).not.toContain('examples/');
      expect(read(dir, 'vitest.config.ts')).not.toContain('examples/demo/');
      expect(read(dir, 'README.md')).not.toContain('## Try the demo');
      expect(read(dir, 'README.md')).toContain('## Make it yours');
      expect(read(dir, 'prisma/schema.prisma')).not.toMatch(/model Refund\b/);
      expect(read(dir, 'prisma/postgres/schema.prisma')).not.toMatch(/model Refund\b/);
      // One new migration per database, under one name, dropping the table.
      const added = migrationsOf(dir, 'prisma/migrations').filter((entry) => !before.sqlite.includes(entry));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(/_remove_demo$/);
      expect(migrationsOf(dir, 'prisma/postgres/migrations').filter((entry) => !before.postgres.includes(entry))).toEqual(added);
      expect(read(dir, `prisma/migrations/${added[0]}/migration.sql`)).toMatch(/DROP TABLE "Refund"/);
      expect(read(dir, `prisma/postgres/migrations/${added[0]}/migration.sql`)).toMatch(/DROP TABLE "Refund"/);
      for (const line of [
        'removed examples/demo',
        'removed app/api/demo',
        'edited server/agents/index.ts',
        'edited README.md',
        'edited prisma/schema.prisma',
        'regenerated the Prisma clients',
      ]) {
        expect(first.output).toContain(line);
      }

      const second = await demoRemove(dir);
      expect(second).toEqual({ code: 0, output: 'The demo is already removed: nothing to do.\n' });
      expect(migrationsOf(dir, 'prisma/migrations')).toHaveLength(before.sqlite.length + 1);
    },
  );

  it.skipIf(!demoHere)('refuses on a checkout with uncommitted changes, changing nothing, unless --force', { timeout: 180_000 }, async () => {
    const dir = appCopy();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'copy');
    writeFileSync(path.join(dir, 'README.md'), `${read(dir, 'README.md')}\nwork in progress\n`);
    const refused = await demoRemove(dir);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('uncommitted changes');
    expect(existsSync(path.join(dir, 'examples/demo'))).toBe(true);
    const forced = await demoRemove(dir, '--force');
    expect(forced.code).toBe(0);
    expect(existsSync(path.join(dir, 'examples/demo'))).toBe(false);
    expect(read(dir, 'README.md')).toContain('work in progress');
  });

  it.skipIf(demoHere)('on an app without the demo, says there is nothing to do and changes nothing', async () => {
    const dir = appCopy();
    const before = [read(dir, 'server/agents/index.ts'), read(dir, 'README.md'), read(dir, 'prisma/schema.prisma')];
    expect(await demoRemove(dir)).toEqual({ code: 0, output: 'The demo is already removed: nothing to do.\n' });
    expect([read(dir, 'server/agents/index.ts'), read(dir, 'README.md'), read(dir, 'prisma/schema.prisma')]).toEqual(before);
  });
});
