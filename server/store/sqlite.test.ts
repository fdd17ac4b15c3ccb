// The store's conformance suite on SQLite: a fresh file in a temp dir, built by the real migrations.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sqltag as sql } from '@prisma/client/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSqliteUrl } from '../../tests/support/database';
import { sqliteFilePath } from './database-url';
import { openPrismaClient } from './prisma-client';
import { createPrismaStore } from './prisma-store';
import { openSqliteHotPath } from './sqlite-hot-path';
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

describe('how each connection keeps its commits (docs/deploy.md, "What a SQLite file keeps")', () => {
  // A migrated file is in rollback-journal mode until a connection switches it to WAL; better-sqlite3
  // (built with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1) gives NORMAL to a connection opened on a WAL file,
  // and left the one that switched it syncing every commit to disk (FULL).
  it.each(['store', 'Prisma'] as const)('runs each connection in WAL without a sync per commit, the %s connection opening the file first', async (first) => {
    const file = sqliteFilePath(await freshSqliteUrl());
    const opened: { name: string; pragma: (name: string) => Promise<unknown>; close: () => Promise<void> }[] = [];
    const connect = {
      store: async () => {
        const own = await openSqliteHotPath(file);
        opened.push({
          name: 'store',
          pragma: async (name) => Object.values((await own.query(sql([`PRAGMA ${name}`])))[0]!)[0],
          close: async () => own.close(),
        });
      },
      Prisma: async () => {
        const { client } = await openPrismaClient(`file:${file}`);
        opened.push({
          name: 'Prisma',
          pragma: async (name) => Object.values((await client.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`))[0]!)[0],
          close: () => client.$disconnect(),
        });
      },
    };
    try {
      await connect[first]();
      await connect[first === 'store' ? 'Prisma' : 'store']();
      // synchronous 1 is NORMAL: a commit survives the process's crash; the WAL is synced at each checkpoint.
      for (const connection of opened) {
        expect([connection.name, await connection.pragma('journal_mode'), Number(await connection.pragma('synchronous'))]).toEqual([connection.name, 'wal', 1]);
      }
    } finally {
      await Promise.all(opened.map((connection) => connection.close()));
      await rm(path.dirname(file), { recursive: true, force: true });
    }
  });
});
