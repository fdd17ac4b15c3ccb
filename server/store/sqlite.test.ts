// The store's conformance suite on SQLite: a fresh file in a temp dir, built by the real migrations.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSqliteUrl } from '../../tests/support/database';
import { sqliteFilePath } from './database-url';
import { createPrismaStore } from './prisma-store';
import { describeEventStoreConformance } from './store.conformance';

let url: string;
beforeAll(async () => {
  url = await freshSqliteUrl();
}, 60_000);
// Runs after the suite's own afterAll has closed its stores.
afterAll(async () => {
  if (url) await rm(path.dirname(sqliteFilePath(url)), { recursive: true, force: true });
});

describeEventStoreConformance('sqlite', async () => createPrismaStore(url));

describe('a database file without the tables', () => {
  it('says to run the migrations, on the hot path (raw queries) as on the rest', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'stackbone-empty-'));
    const file = path.join(dir, 'empty.db');
    await writeFile(file, '');
    const store = createPrismaStore(`file:${file}`);
    try {
      await expect(store.getSession('s')).rejects.toThrow('npm run db:migrate');
      await expect(store.readEvents('s')).rejects.toThrow('npm run db:migrate');
      await expect(store.listSessions('o')).rejects.toThrow('npm run db:migrate');
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
