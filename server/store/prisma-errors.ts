// What the database's refusals mean to the store: a unique violation is a lost race, a foreign key
// violation a write for a session that does not exist, a missing table an unmigrated database.
import { noSuchSession } from './backend-rules';

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The driver's kind of failure of a raw query (P2010), as the adapter classifies it; a model
 * query reports the same failures as P2002 / P2003.
 */
function driverErrorKind(error: unknown): string | undefined {
  const kind = (error as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null)?.meta?.driverAdapterError?.cause?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

// The drivers' own codes, from the store's own statements (sqlite-hot-path.ts, postgres-hot-path.ts):
// better-sqlite3's, and PostgreSQL's SQLSTATE as pg reports it.
const UNIQUE = new Set(['P2002', 'SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE', '23505']);
const FOREIGN_KEY = new Set(['P2003', 'SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);
const MISSING_TABLE = new Set(['P2021', '42P01']);

export function isUniqueViolation(error: unknown): boolean {
  return UNIQUE.has(errorCode(error) ?? '') || driverErrorKind(error) === 'UniqueConstraintViolation';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return FOREIGN_KEY.has(errorCode(error) ?? '') || driverErrorKind(error) === 'ForeignKeyConstraintViolation';
}

function isMissingTable(error: unknown): boolean {
  if (MISSING_TABLE.has(errorCode(error) ?? '') || driverErrorKind(error) === 'TableDoesNotExist') return true;
  return errorCode(error) === 'SQLITE_ERROR' && error instanceof Error && error.message.startsWith('no such table');
}

/** Turns "table does not exist" into the one thing to do about it. */
export function explainMissingTables(error: unknown): unknown {
  if (!isMissingTable(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`The database has no Stackbone tables: run \`npm run db:migrate\`. (${message})`, { cause: error });
}

/**
 * A row written once, whoever asks and however many at once (a session, a stop, a queued message, a
 * timer, a steer): the row found is returned as it is; otherwise it is created, and a create that
 * another caller beat to it (a unique violation) returns that caller's row. A create on a session
 * that does not exist is the caller's bug.
 */
export async function createOnce<R>(
  sessionId: string,
  find: () => Promise<R | null | undefined>,
  create: () => Promise<R>,
): Promise<{ row: R; created: boolean }> {
  const found = await find();
  if (found) return { row: found, created: false };
  try {
    return { row: await create(), created: true };
  } catch (error) {
    if (isForeignKeyViolation(error)) throw noSuchSession(sessionId, error);
    if (!isUniqueViolation(error)) throw error;
    const winner = await find();
    if (!winner) throw error;
    return { row: winner, created: false };
  }
}
