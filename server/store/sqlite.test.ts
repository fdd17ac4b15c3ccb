// The store contract on SQLite: a fresh file in a temp dir, built by the real migrations.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freshSqliteUrl } from '../../tests/support/database';
import { sqliteFilePath } from './database-url';
import { createPrismaStore } from './prisma-store';
import { describeEventStoreContract } from './store.contract';

let url: string;
beforeAll(async () => {
  url = await freshSqliteUrl();
}, 60_000);
// Runs after the contract's own afterAll has closed its stores.
afterAll(async () => {
  if (url) await rm(path.dirname(sqliteFilePath(url)), { recursive: true, force: true });
});

describeEventStoreContract('sqlite', async () => createPrismaStore(url));
