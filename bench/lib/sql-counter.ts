// Counts the SQL a process sends, at the drivers (pg's Client.query, a better-sqlite3 statement's
// run/all/get/iterate: the store keeps its statements prepared, so each execution counts),
// below Prisma: what reaches the database, not what the code meant to send. A transaction is a
// BEGIN, or a write (INSERT/UPDATE/DELETE) outside one, which the database commits on its own.
import Database from 'better-sqlite3';
import pg from 'pg';

export interface SqlCounts {
  transactions: number;
  /** Of those: explicit BEGIN … COMMIT. */
  explicitTransactions: number;
  writeStatements: number;
  readStatements: number;
}

const zero = (): SqlCounts => ({ transactions: 0, explicitTransactions: 0, writeStatements: 0, readStatements: 0 });
let counts = zero();
const inTransaction = new WeakSet<object>();

function count(connection: object, sql: string): void {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
  if (verb === 'BEGIN') {
    inTransaction.add(connection);
    counts.transactions++;
    counts.explicitTransactions++;
  } else if (verb === 'COMMIT' || verb === 'ROLLBACK') {
    inTransaction.delete(connection);
  } else if (verb === 'INSERT' || verb === 'UPDATE' || verb === 'DELETE' || (verb === 'WITH' && /\b(INSERT|UPDATE|DELETE)\b/i.test(sql))) {
    // A WITH that writes (the store's one-statement append on PostgreSQL) is a write.
    counts.writeStatements++;
    if (!inTransaction.has(connection)) counts.transactions++;
  } else if (verb === 'SELECT' || verb === 'WITH') {
    counts.readStatements++;
  }
}

let installed = false;

export function installSqlCounter(): void {
  if (installed) return;
  installed = true;
  type PgQuery = (this: pg.Client, ...args: unknown[]) => unknown;
  const pgQuery = pg.Client.prototype.query as unknown as PgQuery;
  (pg.Client.prototype as unknown as { query: PgQuery }).query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args;
    const sql = typeof config === 'string' ? config : ((config as { text?: string } | undefined)?.text ?? '');
    count(this, sql);
    return pgQuery.apply(this, args);
  };
  // Statements have no constructor of their own to reach: take their prototype from one.
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method]!;
    statement[method] = function (this: Database.Statement, ...args: unknown[]) {
      count(this.database, this.source);
      return original.apply(this, args);
    };
  }
}

/** Counts from now on; read them with the function returned. */
export function startCounting(): () => SqlCounts {
  counts = zero();
  return () => ({ ...counts });
}
