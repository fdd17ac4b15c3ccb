// Cross-process session notifications on PostgreSQL: every append and stop runs
// `pg_notify('stackbone_session', <sessionId>)` inside its transaction (delivered only on
// commit), and a store that has watchers keeps ONE dedicated connection doing
// `LISTEN stackbone_session`, which hands each notification to its in-process hub.
//
// The store also calls its hub itself right after its own commits (no round trip), so its own
// notifications come back as echoes. Each write tells the listener which backend (pid) sent
// its NOTIFY; an echo is recognised by that pid and session and swallowed, so a watcher hears
// the process's own changes once. Other processes' backends have other pids, so nothing of
// theirs is ever swallowed.
import type { Client, Notification } from 'pg';
import { parsePostgresUrl } from './prisma-client';
import type { WatchHub } from './session-watch';

export const SESSION_CHANNEL = 'stackbone_session';

/** Reconnect delays after the LISTEN connection fails: doubling from the first to the last. */
const BACKOFF_MS = { first: 100, max: 5_000 };

/** Echoes awaited beyond this are forgotten (only possible if writes outpace a dead connection). */
const MAX_AWAITED_ECHOES = 10_000;

/** The statement every notifying write runs in its transaction; answers the sending backend's pid. */
const NOTIFY_SQL = `SELECT pg_backend_pid() AS pid FROM (SELECT pg_notify('${SESSION_CHANNEL}', $1)) AS sent`;

/**
 * Inside a write's transaction: sends the NOTIFY (delivered only if the transaction commits) and
 * tells the listener to skip its echo, as this process calls its own watchers itself. Answers what
 * to call if the transaction fails after all. `query` runs a statement in the transaction.
 */
export async function notifyOnCommit(
  listener: PostgresListener,
  sessionId: string,
  query: (sql: string, values: unknown[]) => Promise<{ pid: number }[]>,
): Promise<() => void> {
  const [sent] = await query(NOTIFY_SQL, [sessionId]);
  return listener.awaitEcho(Number(sent!.pid), sessionId);
}

export interface PostgresListener {
  /** Opens the LISTEN connection unless it is open or opening (the first watch() calls this). */
  start(): void;
  /**
   * Says that the backend `pid` has sent (uncommitted) a notification for sessionId that this
   * process reports to its hub itself. Returns the function to call if the write did not commit.
   */
  awaitEcho(pid: number, sessionId: string): () => void;
  /** Ends the connection and any pending reconnect; the listener cannot start again. */
  close(): Promise<void>;
}

export interface PostgresListenerOptions {
  /** The connection's application_name, as pg_stat_activity shows it. */
  applicationName?: string;
}

export function createPostgresListener(databaseUrl: string, hub: WatchHub, options: PostgresListenerOptions = {}): PostgresListener {
  // The same connection settings as the store's pool (prisma-client.ts); ?schema= is
  // irrelevant to LISTEN/NOTIFY (channels are per database).
  const { connectionString } = parsePostgresUrl(databaseUrl);
  let started = false;
  let closed = false;
  let current: Client | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  /** `${pid}:${sessionId}` → one token per own write whose echo has not arrived yet. */
  const awaited = new Map<string, Set<object>>();

  function onNotification(client: Client, message: Notification) {
    if (client !== current || message.channel !== SESSION_CHANNEL || !message.payload) return;
    const key = `${message.processId}:${message.payload}`;
    const tokens = awaited.get(key);
    if (tokens) {
      const [token] = tokens;
      tokens.delete(token);
      if (tokens.size === 0) awaited.delete(key);
      return; // our own write: its watchers were called when it committed
    }
    hub.notify(message.payload);
  }

  function lost(client: Client) {
    if (client !== current) return;
    current = null;
    // Echoes in flight on the dead connection will never come; after reconnecting every
    // watcher is called anyway.
    awaited.clear();
    client.end().catch(() => {});
    if (closed) return;
    const delay = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** failures++);
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, delay);
    retry.unref();
  }

  async function connect() {
    const { default: pg } = await import('pg');
    if (closed) return;
    const client = new pg.Client({ connectionString, keepAlive: true, application_name: options.applicationName ?? 'stackbone-listen' });
    current = client;
    // Both stay attached for the client's life: a dead client's late events are ignored.
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', (message) => onNotification(client, message));
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSION_CHANNEL}`);
    } catch {
      lost(client);
      return;
    }
    if (client !== current) return; // closed (or lost) while connecting
    failures = 0;
    // Anything awaited from before LISTEN took effect may never echo; a duplicate call is
    // allowed, a stuck entry is not.
    awaited.clear();
    // Changes made while nobody listened (before the first LISTEN, or while reconnecting) were
    // not delivered: every watcher re-reads once.
    hub.notifyAll();
  }

  return {
    start() {
      if (started || closed) return;
      started = true;
      void connect();
    },

    awaitEcho(pid, sessionId) {
      if (!started || closed) return () => {};
      if (awaited.size >= MAX_AWAITED_ECHOES) awaited.clear();
      const key = `${pid}:${sessionId}`;
      const token = {};
      let tokens = awaited.get(key);
      if (!tokens) awaited.set(key, (tokens = new Set()));
      tokens.add(token);
      return () => {
        const now = awaited.get(key);
        if (!now?.delete(token)) return;
        if (now.size === 0) awaited.delete(key);
      };
    },

    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = null;
      const client = current;
      current = null;
      awaited.clear();
      if (client) await client.end().catch(() => {});
    },
  };
}
