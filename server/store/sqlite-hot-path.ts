// The hot path on a SQLite file through a better-sqlite3 connection of the store's own, with its
// prepared statements kept across calls. Through Prisma every raw query is planned by its query
// compiler and prepared anew by its adapter, about half of a short turn's time (docs/internals/benchmarks.md,
// "Where the time went"); here a statement is prepared once and each call is a bind and a step.
// The connection takes its turns in the same queue as the store's Prisma client and the app's
// tables (sqlite-turns.ts), so nothing else in this process runs between a transaction's
// statements. Values are written as Prisma's SQLite adapter writes them (a Date as ISO 8601 with
// "+00:00", a boolean as 0/1), so that Prisma's own queries read and compare them alike.
import type { Sql } from '@prisma/client/runtime/client';
import type BetterSqlite3 from 'better-sqlite3';
import { assertSqliteFileExists } from './prisma-client';
import type { Row } from './prisma-rows';
import type { RawSql, RawStore } from './raw-sql';

/** How long a writer waits for another process's write lock (as prisma-client.ts sets Prisma's). */
const BUSY_TIMEOUT_MS = 10_000;
/** Distinct statements kept prepared; the hot path has a few dozen (an insert's text varies with its row count). */
const MAX_PREPARED = 256;

export interface SqliteHotPath extends RawStore {
  close(): void;
}

function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('Z', '+00:00');
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value ?? null;
}

export async function openSqliteHotPath(file: string): Promise<SqliteHotPath> {
  assertSqliteFileExists(file);
  const { default: Database } = await import('better-sqlite3');
  const db: BetterSqlite3.Database = new Database(file, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true });
  // A commit waits for the WAL's write, not for the disk: on every connection, whichever opened
  // first (docs/deploy.md, "What a SQLite file keeps").
  if (db.pragma('journal_mode = WAL', { simple: true }) === 'wal') db.pragma('synchronous = NORMAL');
  // Per connection, and off by default: the schema's ON DELETE CASCADE relies on it.
  db.pragma('foreign_keys = ON');
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const prepare = (text: string) => {
    let statement = prepared.get(text);
    if (!statement) {
      if (prepared.size >= MAX_PREPARED) prepared.clear();
      prepared.set(text, (statement = db.prepare(text)));
    }
    return statement;
  };
  const [begin, commit, rollback] = [db.prepare('BEGIN IMMEDIATE'), db.prepare('COMMIT'), db.prepare('ROLLBACK')];

  const raw: RawSql = {
    query: async (statement: Sql) => {
      const prepared = prepare(statement.sql);
      const values = statement.values.map(sqliteValue);
      if (prepared.reader) return prepared.all(values) as Row[];
      prepared.run(values);
      return [];
    },
    execute: async (statement: Sql) => prepare(statement.sql).run(statement.values.map(sqliteValue)).changes,
  };

  return {
    ...raw,
    async transaction(_sessionId, work) {
      // IMMEDIATE: the write lock first, so that a writer in another process makes this one wait
      // (the busy timeout) rather than fail at its first write.
      begin.run();
      try {
        const value = await work(raw);
        commit.run();
        return value;
      } catch (error) {
        if (db.inTransaction) rollback.run();
        throw error;
      }
    },
    close: () => db.close(),
  };
}
