// Prisma CLI configuration. We run Prisma 6 with its JavaScript engines only (no native
// binary to download): migrations go through the same driver adapters the app uses.
// DATABASE_URL picks the database kind: postgres://… → PostgreSQL, anything else → SQLite.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

process.env.DATABASE_URL ??= 'file:./.data/stackbone.db';
const url = process.env.DATABASE_URL;
const isPostgres = /^postgres(ql)?:\/\//.test(url);

/** better-sqlite3 runs one statement per call; migration files hold many. */
function scriptAware(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    const body = query.sql.trim().replace(/;\s*$/, '');
    if (query.args.length === 0 && body.includes(';')) {
      await adapter.executeScript(query.sql);
      return 0;
    }
    return executeRaw(query);
  };
  return adapter;
}

function sqliteAdapter(): SqlMigrationAwareDriverAdapterFactory {
  const file = url.replace(/^file:/, '');
  const factory = new PrismaBetterSQLite3({ url: path.resolve(file) });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => scriptAware(await factory.connect()),
    connectToShadowDb: async () => scriptAware(await factory.connectToShadowDb()),
  };
}

/**
 * The JS schema engine reads Postgres catalogs whose column types (name, "char", name[])
 * adapter-pg has no mapping for. They are text to us; report them as such.
 */
const CATALOG_TYPES_AS_TEXT: Record<number, number> = { 19: 25, 18: 25, 1002: 1009, 1003: 1009 };
function readCatalogTypesAsText() {
  const proto = pg.Result.prototype as unknown as { addFields(fields: { dataTypeID: number }[]): void };
  const addFields = proto.addFields;
  proto.addFields = function (fields) {
    for (const field of fields) field.dataTypeID = CATALOG_TYPES_AS_TEXT[field.dataTypeID] ?? field.dataTypeID;
    return addFields.call(this, fields);
  };
}

function postgresAdapter(): SqlMigrationAwareDriverAdapterFactory {
  readCatalogTypesAsText();
  const u = new URL(url);
  return new PrismaPg(
    {
      host: u.hostname,
      port: Number(u.port || 5432),
      user: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password) || undefined,
      database: u.pathname.slice(1),
    },
    { schema: u.searchParams.get('schema') ?? undefined },
  );
}

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: isPostgres ? 'prisma/postgres/schema.prisma' : 'prisma/schema.prisma',
  adapter: async () => (isPostgres ? postgresAdapter() : sqliteAdapter()),
});
