// One server process per SQLite file (docs/deploy.md, "SQLite: one process"). SQLite is one file on one
// machine: the store's writes take turns inside a process (sqlite-turns.ts) and its watchers hear
// only their own process, so a second `next start` on the same file would answer some requests
// with 500s (a write refused as busy) and miss the other's live events. The server therefore takes
// a lock tied to the file when it starts, and a second one refuses to start.
//
// The lock is SQLite's own, on a small file beside the database (`<file>.lock`): a write
// transaction held open for the life of the process. The operating system lets go of it when the
// process ends, however it ends — a crash or `kill -9` leaves no stale lock to block the restart —
// and a process that is stopped but alive (SIGSTOP) still holds it. The holder's pid is kept in
// the file, so the refusal names it.
import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;

// Held for the life of the process; on globalThis, so that a second register() in the same process
// (Next dev) finds it and does not lock itself out.
const held = globalThis as typeof globalThis & { __stackboneSqliteLocks?: Map<string, Database> };

/**
 * Takes the server lock of the SQLite database `file` for this process. Answers null when this
 * process holds it, or why it cannot: another process does.
 */
export async function lockSqliteFile(file: string): Promise<string | null> {
  const locks = (held.__stackboneSqliteLocks ??= new Map());
  if (locks.has(file)) return null;
  const { default: Database } = await import('better-sqlite3');
  const lockFile = `${file}.lock`;
  // No busy wait: a lock another process holds is a refusal at once.
  const db = new Database(lockFile, { timeout: 0 });
  const refusal = () => {
    const pid = holderPid(db);
    db.close();
    return (
      `another process${pid ? ` (pid ${pid})` : ''} serves the SQLite database ${file} (it holds ${lockFile}). ` +
      'A SQLite file takes one server process: stop that one first, or use PostgreSQL to run several (docs/deploy.md).'
    );
  };
  if (!begin(db)) return refusal();
  // The holder's pid, committed so that a refused process can read it; then the lock again at once.
  // Two processes starting together: whichever begins last after its commit is refused (the pid
  // it reads may then be its own, written a moment earlier).
  db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL)');
  db.exec('DELETE FROM holder');
  db.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, new Date().toISOString());
  db.exec('COMMIT');
  if (!begin(db)) return refusal();
  locks.set(file, db);
  return null;
}

/** BEGIN IMMEDIATE: the file's write lock, or false when another connection holds it. */
function begin(db: Database): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
}

/** The pid the lock's holder wrote, if it can be read (the holder may be writing it this instant). */
function holderPid(db: Database): number | undefined {
  try {
    const row = db.prepare('SELECT pid FROM holder').get() as { pid?: number } | undefined;
    return row?.pid;
  } catch {
    return undefined;
  }
}
