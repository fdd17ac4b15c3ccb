// What the store checks before a server serves (server/boot): on a SQLite file, that no
// other server process serves it (sqlite-server-lock.ts). A refusal ends the process with one
// line, as the start checks do (server/identity/start-checks.ts): an error thrown from
// instrumentation would leave `next start` listening and failing every request instead.
import { existsSync } from 'node:fs';
import { databaseKind, databaseUrl, sqliteFilePath } from './database-url';
import { lockSqliteFile } from './sqlite-server-lock';

export async function refuseSharedSqliteFile(): Promise<void> {
  const url = databaseUrl();
  if (databaseKind(url) !== 'sqlite') return;
  const file = sqliteFilePath(url);
  // A file not migrated yet: the store says what to run at its first use (prisma-client.ts).
  if (file === ':memory:' || !existsSync(file)) return;
  const refusal = await lockSqliteFile(file);
  if (!refusal) return;
  console.error(`[stackbone] The server does not start: ${refusal}`);
  process.exit(1);
}
