// The data migration that moved every session into its owner's namespace
// (prisma/*/migrations/20261207000000_owner_scoped_session_ids; server/runtime/session/session-id.ts):
// a database written before it keeps every session, and each table that names a session follows
// it. The migrations are applied as the SQL they are, in order, on both kinds of database.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { emptyPostgresSchema, postgresReachable } from '../support/database';
import { parsePostgresUrl } from '../../server/store/prisma-client';

const MIGRATION = '20261207000000_owner_scoped_session_ids';
const postgres = await postgresReachable();

async function migrations(folder: string): Promise<{ name: string; sql: string }[]> {
  const names = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(path.join(folder, name, 'migration.sql'), 'utf8') })));
}

/** Rows as a server before the migration wrote them: two owners, every table that names a session. */
const BEFORE = [
  `INSERT INTO "Session" ("id", "ownerId", "agent", "headSeq", "status", "createdAt", "updatedAt") VALUES ('thread-1', 'local', 'helpdesk', 1, 'interrupted', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
  `INSERT INTO "Session" ("id", "ownerId", "agent", "headSeq", "status", "createdAt", "updatedAt") VALUES ('customer/42', 'key:abc123', 'helpdesk', 1, 'idle', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
  `INSERT INTO "Event" ("sessionId", "seq", "type", "data") VALUES ('thread-1', 1, 'run_started', '{}')`,
  `INSERT INTO "Event" ("sessionId", "seq", "type", "data") VALUES ('customer/42', 1, 'run_started', '{}')`,
  `INSERT INTO "Interrupt" ("id", "sessionId", "ownerId", "agent", "status", "data") VALUES ('int_1', 'thread-1', 'local', 'helpdesk', 'pending', '{}')`,
  `INSERT INTO "RunStop" ("sessionId", "runId", "by") VALUES ('thread-1', 'run-1', '{}')`,
  `INSERT INTO "Timer" ("id", "sessionId", "key", "fireAt", "messages") VALUES ('tmr_1', 'customer/42', 'k', CURRENT_TIMESTAMP, '[]')`,
  `INSERT INTO "RunSteer" ("id", "sessionId", "runId", "message", "createdAt") VALUES ('str_1', 'thread-1', 'run-1', '{}', CURRENT_TIMESTAMP)`,
  `INSERT INTO "QueuedMessage" ("sessionId", "messageId", "message", "runId", "source", "position") VALUES ('customer/42', 'm1', '{}', 'run-2', 'agui', 1)`,
];

const TABLES = ['Event', 'Interrupt', 'RunStop', 'Timer', 'RunSteer', 'QueuedMessage'];
const EXPECTED = {
  Session: ['key:abc123/customer/42', 'local/thread-1'],
  Event: ['key:abc123/customer/42', 'local/thread-1'],
  Interrupt: ['local/thread-1'],
  RunStop: ['local/thread-1'],
  Timer: ['key:abc123/customer/42'],
  RunSteer: ['local/thread-1'],
  QueuedMessage: ['key:abc123/customer/42'],
};

describe('the owner-scoped session ids migration', () => {
  it("moves every SQLite session and its rows into the owner's namespace", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'stackbone-migration-'));
    const db = new Database(path.join(dir, 'db.sqlite'));
    db.pragma('foreign_keys = ON');
    const all = await migrations(path.resolve('prisma/migrations'));
    for (const { sql } of all.filter((migration) => migration.name < MIGRATION)) db.exec(sql);
    for (const statement of BEFORE) db.exec(statement);
    db.exec(all.find((migration) => migration.name === MIGRATION)!.sql);
    const ids = (table: string) =>
      (db.prepare(`SELECT ${table === 'Session' ? '"id"' : '"sessionId"'} AS id FROM "${table}" ORDER BY 1`).all() as { id: string }[]).map((row) => row.id);
    expect(Object.fromEntries(['Session', ...TABLES].map((table) => [table, ids(table)]))).toEqual(EXPECTED);
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    db.close();
  });

  it.skipIf(!postgres)("moves every PostgreSQL session and its rows into the owner's namespace", async () => {
    const url = await emptyPostgresSchema('stackbone_scope_migration');
    const { connectionString } = parsePostgresUrl(url.toString());
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query('SET search_path TO stackbone_scope_migration');
      const all = await migrations(path.resolve('prisma/postgres/migrations'));
      for (const { sql } of all.filter((migration) => migration.name < MIGRATION)) await client.query(sql);
      for (const statement of BEFORE) await client.query(statement.replaceAll('CURRENT_TIMESTAMP', 'now()'));
      await client.query(all.find((migration) => migration.name === MIGRATION)!.sql);
      const ids = async (table: string) =>
        (await client.query(`SELECT ${table === 'Session' ? '"id"' : '"sessionId"'} AS id FROM "${table}" ORDER BY 1`)).rows.map(
          (row: { id: string }) => row.id,
        );
      const found: Record<string, string[]> = {};
      for (const table of ['Session', ...TABLES]) found[table] = await ids(table);
      expect(found).toEqual(EXPECTED);
    } finally {
      await client.end();
    }
  });
});
