// The bench's servers: its production build (`next start` of .next-bench/, next.config.ts) on a
// fresh database of each kind, one at a time, with the bench's baseline route on
// (STACKBONE_BENCH=1, bench/bare-route.ts).
// Ports 3301+ (the integration suite has 3201/3202); the scale-out item's instances 3311+, the flood's 3331+.
import { readdirSync, readFileSync } from 'node:fs';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable, testPostgresUrl } from '../../tests/support/database';
import { startServer, type TestServer } from '../../tests/support/server';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface BenchDatabase {
  kind: DatabaseKind;
  url: string;
}

const POSTGRES_SCHEMA = 'stackbone_bench';

/** SQLite always; Postgres when a server answers (else the reason it was skipped). */
export async function benchDatabases(): Promise<{ databases: DatabaseKind[]; postgresSkipped: string | null }> {
  if (await postgresReachable()) return { databases: ['sqlite', 'postgres'], postgresSkipped: null };
  return { databases: ['sqlite'], postgresSkipped: `no PostgreSQL server answers at ${testPostgresUrl()}` };
}

export async function freshDatabase(kind: DatabaseKind, schema = POSTGRES_SCHEMA): Promise<BenchDatabase> {
  return { kind, url: kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl(schema) };
}

const PORTS: Record<DatabaseKind, number> = { sqlite: 3301, postgres: 3302 };

/** A production server of the bench's build on the database; `port` for more than one at once (the scale-out item, 3311+). */
export function startBenchServer(database: BenchDatabase, port = PORTS[database.kind]): Promise<TestServer> {
  // Open dev mode on a production build: it starts only with STACKBONE_ALLOW_OPEN_ACCESS=1, and
  // its 200 runs at once and 50 followers of a thread are all the one local owner's streams
  // (STACKBONE_MAX_STREAMS_PER_OWNER, 32 by default; docs/security.md).
  return startServer({
    port,
    databaseUrl: database.url,
    env: { STACKBONE_BENCH: '1', STACKBONE_FIXTURE_AGENTS: '1', STACKBONE_ALLOW_OPEN_ACCESS: '1', STACKBONE_MAX_STREAMS_PER_OWNER: '100000' },
  });
}

export interface ProcessMemory {
  pid: number;
  name: string;
  rssMB: number;
}

/**
 * The resident memory of the server: of the process that serves, which is the largest of the
 * `next start` process and its descendants (Next may serve from a child process).
 */
export function serverMemory(rootPid: number): ProcessMemory {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  let largest: ProcessMemory = { pid: rootPid, name: '?', rssMB: 0 };
  for (const pid of tree) {
    const memory = processMemory(pid);
    if (memory && memory.rssMB > largest.rssMB) largest = memory;
  }
  return largest;
}

/** One process's resident memory, read from its own status file alone; undefined once it is gone. */
export function processMemory(pid: number): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { pid, name: /Name:\s+(.+)/.exec(status)?.[1] ?? '?', rssMB: rssKB / 1024 };
  } catch {
    return undefined;
  }
}
