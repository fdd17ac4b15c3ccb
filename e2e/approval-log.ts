// The event log of a test server's SQLite database, read straight from its tables (not through the
// app), and what Studio's approval metrics should say of it (docs/studio.md, "Approval metrics"),
// worked out here on its own from the events; and, for history a test cannot wait for, an approval
// decided days ago, written as the store writes one.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { SessionEvent } from '../server/store/events';
import type { Decision, InterruptRecord } from '../server/store/pauses';

interface LoggedEvent {
  sessionId: string;
  ownerId: string;
  agent: string;
  at: number;
  event: SessionEvent;
}

const fileOf = (databaseUrl: string) => databaseUrl.replace(/^file:/, '');
/** A time as Prisma's SQLite adapter stores it (server/store/sqlite-hot-path.ts). */
const stored = (at: Date) => at.toISOString().replace('Z', '+00:00');

/** Every session's events, each session's in order. */
export function readEveryLog(databaseUrl: string): LoggedEvent[] {
  const db = new Database(fileOf(databaseUrl), { readonly: true });
  try {
    const rows = db
      .prepare(
        'SELECT e."sessionId" AS sessionId, s."ownerId" AS ownerId, s.agent AS agent, e."createdAt" AS at, e.data AS data FROM "Event" e JOIN "Session" s ON s.id = e."sessionId" ORDER BY e."sessionId", e.seq',
      )
      .all() as { sessionId: string; ownerId: string; agent: string; at: string | number; data: string }[];
    return rows.map((row) => ({ ...row, at: new Date(row.at).getTime(), event: JSON.parse(row.data) as SessionEvent }));
  } finally {
    db.close();
  }
}

/**
 * A session of `ownerId` whose one approval, `record`, was asked at `openedAt` and decided at
 * `decidedAt`: its two events, its session row and its row in the interrupt projection, as an
 * append would have written them then. Answers its session's key.
 */
export function writeDecidedApproval(
  databaseUrl: string,
  approval: { ownerId: string; agent: string; record: InterruptRecord; decision: Decision; openedAt: Date; decidedAt: Date },
): string {
  const { ownerId, agent, record, decision, openedAt, decidedAt } = approval;
  const key = randomUUID();
  const sessionId = `${ownerId}/${key}`;
  const events: SessionEvent[] = [
    { type: 'interrupts_opened', interrupts: [record] },
    { type: 'interrupt_decided', interruptId: record.id, decision },
  ];
  const db = new Database(fileOf(databaseUrl), { timeout: 10_000 });
  try {
    db.transaction(() => {
      db.prepare(
        'INSERT INTO "Session" (id, "ownerId", agent, "headSeq", status, "logBytes", "createdAt", "updatedAt") VALUES (?, ?, ?, 2, \'idle\', ?, ?, ?)',
      ).run(
        sessionId,
        ownerId,
        agent,
        events.reduce((sum, event) => sum + JSON.stringify(event).length, 0),
        stored(openedAt),
        stored(decidedAt),
      );
      events.forEach((event, index) =>
        db
          .prepare('INSERT INTO "Event" ("sessionId", seq, type, data, "createdAt") VALUES (?, ?, ?, ?, ?)')
          .run(sessionId, index + 1, event.type, JSON.stringify(event), stored(index === 0 ? openedAt : decidedAt)),
      );
      db.prepare(
        'INSERT INTO "Interrupt" (id, "sessionId", "ownerId", agent, "toolCallId", "toolName", status, data, "createdAt", "decidedAt") VALUES (?, ?, ?, ?, ?, ?, \'decided\', ?, ?, ?)',
      ).run(record.id, sessionId, ownerId, agent, record.toolCallId, record.toolName, JSON.stringify(record), stored(openedAt), stored(decidedAt));
    })();
  } finally {
    db.close();
  }
  return key;
}

type Outcome = 'approved' | 'edited' | 'rejected' | 'expired' | 'cancelled';

interface ExpectedTool {
  agent: string;
  toolName: string;
  counts: Record<Outcome, number>;
  total: number;
}

export interface ExpectedMetrics {
  pending: { interruptId: string; openedAt: number }[];
  windows: Record<7 | 30, { medianMs: number | null; p95Ms: number | null; decided: number; tools: ExpectedTool[] }>;
}

function outcome(decision: Decision): Outcome {
  if (decision.expired) return 'expired';
  if (decision.status === 'cancelled') return 'cancelled';
  if (decision.status === 'denied') return 'rejected';
  return decision.editedArgs === undefined ? 'approved' : 'edited';
}

/** The value at rank ⌈p·n⌉ of ascending times. */
const rank = (times: number[], p: number) => (times.length ? times[Math.ceil(p * times.length) - 1]! : null);

/**
 * The figures of the approvals in `log` at `now`, for an open dev mode server (one owner: every
 * session is the caller's): approvals, not questions, asked in each window; a person's decisions
 * timed; what waits and is not past its expiry, oldest first.
 */
export function expectedMetrics(log: LoggedEvent[], now: number): ExpectedMetrics {
  const asked = new Map<string, { record: InterruptRecord; openedAt: number; expiresAt?: string; decided?: { decision: Decision; at: number } }>();
  for (const { at, event } of log) {
    if (event.type === 'interrupts_opened')
      for (const record of event.interrupts)
        if (record.reason !== 'input_required') asked.set(record.id, { record, openedAt: at, expiresAt: record.expiresAt });
    if (event.type === 'interrupt_escalated' && asked.has(event.interruptId)) asked.get(event.interruptId)!.expiresAt = event.expiresAt;
    if (event.type === 'interrupt_decided' && asked.has(event.interruptId)) asked.get(event.interruptId)!.decided = { decision: event.decision, at };
  }
  const all = [...asked.values()];
  const windowOf = (days: number) => {
    const decided = all.filter((approval) => approval.decided && approval.openedAt >= now - days * 86_400_000);
    const times = decided
      .filter((approval) => ['approved', 'edited', 'rejected'].includes(outcome(approval.decided!.decision)))
      .map((approval) => approval.decided!.at - approval.openedAt)
      .sort((a, b) => a - b);
    const tools = new Map<string, ExpectedTool>();
    for (const { record, decided: made } of decided) {
      const key = `${record.agent}/${record.toolName}`;
      const tool = tools.get(key) ?? {
        agent: record.agent,
        toolName: record.toolName,
        counts: { approved: 0, edited: 0, rejected: 0, expired: 0, cancelled: 0 },
        total: 0,
      };
      tool.counts[outcome(made!.decision)]++;
      tool.total++;
      tools.set(key, tool);
    }
    return {
      medianMs: rank(times, 0.5),
      p95Ms: rank(times, 0.95),
      decided: decided.length,
      tools: [...tools.values()].sort((a, b) => b.total - a.total || a.toolName.localeCompare(b.toolName) || a.agent.localeCompare(b.agent)),
    };
  };
  const pending = all
    .filter((approval) => !approval.decided && !(approval.expiresAt && Date.parse(approval.expiresAt) <= now))
    .sort((a, b) => a.openedAt - b.openedAt)
    .map((approval) => ({ interruptId: approval.record.id, openedAt: approval.openedAt }));
  return { pending, windows: { 7: windowOf(7), 30: windowOf(30) } };
}
