// The hot path on PostgreSQL straight through pg, on the pool the store's Prisma client uses
// (prisma-client.ts). Through Prisma every raw query is planned by its query compiler first, which
// costs a short turn more than the database does (docs/internals/benchmarks.md, "Where the time went").
// Values are written and read as Prisma's pg adapter writes and reads them — a DateTime is a UTC
// `timestamp(3)` without time zone — so that Prisma's own queries compare them alike.
import type { Sql } from '@prisma/client/runtime/client';
import type { CustomTypesConfig, Pool, PoolClient } from 'pg';
import { notifyOnCommit, type PostgresListener } from './postgres-listener';
import type { Row } from './prisma-rows';
import type { RawSql, RawStore } from './raw-sql';

/** pg's type id of `timestamp without time zone`, Prisma's DateTime on PostgreSQL. */
const TIMESTAMP = 1114;

/** A Date as UTC wall time, as the column holds it (not pg's default: local time with an offset). */
function postgresValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  return value ?? null;
}

/** A timestamp column's text as the UTC time it holds (pg's default would take it as local time). */
const utcTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

function rawSql(client: Pool | PoolClient, types: CustomTypesConfig): RawSql {
  const run = (statement: Sql) => client.query({ text: statement.text, values: statement.values.map(postgresValue), types });
  return {
    query: async (statement) => (await run(statement)).rows as Row[],
    execute: async (statement) => (await run(statement)).rowCount ?? 0,
  };
}

/** `listener`: the store's LISTEN connection, told of each NOTIFY this process sends (postgres-listener.ts). */
export async function postgresRawStore(pool: Pool, listener: PostgresListener | null): Promise<RawStore> {
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === TIMESTAMP ? utcTimestamp : pg.types.getTypeParser(oid, format)),
  } as CustomTypesConfig;
  return {
    ...rawSql(pool, types),
    async notifyingStatement(sessionId, statement) {
      const client = await pool.connect();
      // Said before the statement runs: its NOTIFY is delivered when it commits, which may be
      // before its answer reaches us (postgres-listener.ts; the connection's backend is its pid).
      const release = listener?.awaitEcho((client as PoolClient & { processID: number }).processID, sessionId) ?? (() => {});
      try {
        const rows = await rawSql(client, types).query(statement);
        if (rows.length === 0) release(); // nothing was written, nothing sent
        return rows;
      } catch (error) {
        release();
        throw error;
      } finally {
        client.release();
      }
    },
    async transaction(sessionId, work) {
      const client = await pool.connect();
      let release = () => {};
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const value = await work(rawSql(client, types));
        if (listener) release = await notifyOnCommit(listener, sessionId, async (sql, values) => (await client.query<{ pid: number }>(sql, values)).rows);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        release();
        await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
        throw error;
      } finally {
        // A connection whose rollback failed is not given back to the pool.
        client.release(broken);
      }
    },
  };
}
