// An EventStore that lives in memory. It backs stateless turns (a session that is thrown
// away with the request) and the runtime's unit tests; it keeps the database stores' rules
// (backend-rules.ts) and is held to the same conformance suite (store.conformance.ts). Its data is a
// MemoryDatabase: stores opened over one database see each other's writes and wake each other's
// watchers, as the stores on one SQLite file do — the suite plays a second server process so.
import { randomUUID } from 'node:crypto';
import type { SessionEvent } from './events';
import { notableEvents, type Notice } from './notices';
import {
  afterPosition,
  checkExpectedSeq,
  DEFAULT_LIST_LIMIT,
  encodeEvents,
  interruptChanges,
  nextQueuePosition,
  noSuchSession,
  recoverableSessionIds,
  stopBy,
  listsInterrupt,
  withContent,
} from './backend-rules';
import { compareText, createMemoryDatabase, type MemoryDatabase } from './memory-database';
import { memoryOutbox } from './memory-outbox';
import { storeWatchers } from './session-watch';
import { timerMessages } from './timer-messages';
import {
  ConcurrentAppendError,
  LimitReachedError,
  UnseenGuidanceError,
  type AppendOptions,
  type EventStore,
  type InterruptRow,
  type PendingInterruptsOptions,
  type QueueEntry,
  type QueuedMessage,
  type SessionChange,
  type SessionRecord,
  type SteerRecord,
  type StopRecord,
  type TimerRecord,
} from './types';

/** A store over `database`, or over a database of its own. `appendCalls` counts this store's appends (tests read it). */
export function createMemoryStore(database: MemoryDatabase = createMemoryDatabase()): EventStore & { appendCalls: number } {
  const { sessions, logs, interrupts, remindersDone, stops, timers, steers, queue, notices, hub } = database;
  const watchers = storeWatchers(hub);
  let closed = false;

  const existing = (sessionId: string): SessionRecord => {
    const session = sessions.get(sessionId);
    if (!session) throw noSuchSession(sessionId);
    return session;
  };

  const store = {
    kind: 'memory' as const,
    appendCalls: 0,
    async ensureSession({ id, ownerId, agent, parentId }: { id: string; ownerId: string; agent: string; parentId?: string }) {
      let session = sessions.get(id);
      if (!session) {
        const now = new Date();
        session = {
          id,
          ownerId,
          agent,
          title: null,
          headSeq: 0,
          status: 'idle',
          leaseUntil: null,
          parentId: parentId ?? null,
          logBytes: 0,
          createdAt: now,
          updatedAt: now,
        };
        sessions.set(id, session);
        logs.set(id, []);
      }
      return { ...session };
    },
    async getSession(id: string) {
      const session = sessions.get(id);
      return session ? { ...session } : null;
    },
    async listSessions(ownerId: string, options: { limit?: number; agent?: string; parentId?: string } = {}) {
      return [...sessions.values()]
        .filter(
          (session) =>
            session.ownerId === ownerId &&
            (options.agent === undefined || session.agent === options.agent) &&
            (options.parentId === undefined || session.parentId === options.parentId),
        )
        .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime() || compareText(a.id, b.id))
        .slice(0, options.limit ?? DEFAULT_LIST_LIMIT)
        .map((session) => ({ ...session }));
    },
    async readEvents(sessionId: string, afterSeq = 0) {
      return (logs.get(sessionId) ?? []).filter((event) => event.seq > afterSeq).map((event) => structuredClone(event));
    },
    async append(sessionId: string, expectedSeq: number, events: SessionEvent[], options: AppendOptions = {}) {
      store.appendCalls++;
      checkExpectedSeq(expectedSeq, options.create !== undefined);
      if (options.create) {
        if (sessions.has(sessionId)) throw new ConcurrentAppendError(sessionId, expectedSeq);
        await store.ensureSession({ id: sessionId, ...options.create });
      }
      const session = existing(sessionId);
      if (session.headSeq !== expectedSeq) throw new ConcurrentAppendError(sessionId, expectedSeq);
      const guard = options.unlessGuidance;
      if (guard && steers.some((steer) => steer.sessionId === sessionId && guard.runIds.includes(steer.runId) && !guard.seen.includes(steer.id))) {
        throw new UnseenGuidanceError(sessionId);
      }
      const now = new Date();
      const log = logs.get(sessionId)!;
      events.forEach((event, index) => log.push({ seq: expectedSeq + index + 1, at: now.toISOString(), event: structuredClone(event) }));
      session.headSeq = expectedSeq + events.length;
      session.logBytes += encodeEvents(events).bytes;
      session.updatedAt = now;
      if (options.status !== undefined) session.status = options.status;
      if (options.leaseUntil !== undefined) session.leaseUntil = options.leaseUntil;
      if (options.title !== undefined) session.title = options.title;
      const { opened, decided, escalated, reminded } = interruptChanges(events);
      for (const record of opened) {
        interrupts.set(record.id, {
          id: record.id,
          sessionId,
          ownerId: session.ownerId,
          agent: record.agent,
          status: 'pending',
          record: structuredClone(record),
          createdAt: now,
          decidedAt: null,
        });
      }
      for (const id of decided) {
        const row = interrupts.get(id);
        if (row) Object.assign(row, { status: 'decided', decidedAt: now });
      }
      for (const { id, type, data } of notableEvents(sessionId, expectedSeq + 1, events)) {
        const notice: Notice = { id, type, sessionId, agent: session.agent, ownerId: session.ownerId, at: now.toISOString(), data: structuredClone(data) };
        notices.set(id, { notice, fannedOutAt: null });
      }
      for (const { id, expiresAt } of escalated) {
        const row = interrupts.get(id);
        if (row) row.record.expiresAt = expiresAt;
      }
      for (const id of reminded) remindersDone.add(id);
      hub.notify(sessionId, 'appended');
      return { headSeq: session.headSeq, at: now.toISOString() };
    },
    async findInterrupt(id: string) {
      const row = interrupts.get(id);
      return row ? structuredClone(row) : null;
    },
    async listPendingInterrupts(ownerId: string, options: PendingInterruptsOptions = {}) {
      return [...interrupts.values()]
        .filter((row) => listsInterrupt(row, ownerId, options) && row.status === (options.status ?? 'pending') && afterPosition(row, options.after))
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || compareText(a.id, b.id))
        .slice(0, options.limit ?? DEFAULT_LIST_LIMIT)
        .map((row) => structuredClone(row));
    },
    async countPendingInterrupts() {
      const counts: Record<string, number> = {};
      for (const row of interrupts.values()) if (row.status === 'pending') counts[row.record.toolName] = (counts[row.record.toolName] ?? 0) + 1;
      return counts;
    },
    async listRecoverable(now: Date, options: { limit?: number } = {}) {
      const limit = options.limit ?? DEFAULT_LIST_LIMIT;
      const stale = [...sessions.values()]
        .filter((session) => session.status === 'running' && session.leaseUntil !== null && session.leaseUntil < now)
        .sort((a, b) => a.leaseUntil!.getTime() - b.leaseUntil!.getTime())
        .slice(0, limit);
      const expiry = (row: InterruptRow) => (row.record.expiresAt === undefined ? Infinity : Date.parse(row.record.expiresAt));
      const expired = [...interrupts.values()]
        .filter((row) => row.status === 'pending' && expiry(row) <= now.getTime())
        .sort((a, b) => expiry(a) - expiry(b))
        .slice(0, limit);
      const reminders = [...interrupts.values()]
        .filter(
          (row) =>
            row.status === 'pending' && row.record.remindAt !== undefined && !remindersDone.has(row.id) && Date.parse(row.record.remindAt) <= now.getTime(),
        )
        .sort((a, b) => Date.parse(a.record.remindAt!) - Date.parse(b.record.remindAt!))
        .slice(0, limit)
        .map((row) => row.sessionId);
      const queued = [
        ...new Set(
          queue
            .filter((item) => sessions.get(item.sessionId)?.status === 'idle')
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
            .map((item) => item.sessionId),
        ),
      ].slice(0, limit);
      return recoverableSessionIds({ stale: stale.map((session) => session.id), expired: expired.map((row) => row.sessionId), queued, reminders });
    },
    async renewLease(sessionId: string, expectedSeq: number, until: Date) {
      const session = sessions.get(sessionId);
      if (!session || session.headSeq !== expectedSeq) return false;
      session.leaseUntil = until;
      // As the database stores' updatedAt column does: a session whose run is alive is the active one.
      session.updatedAt = new Date();
      return true;
    },
    async requestStop({ sessionId, runId, frontier = null, by }: { sessionId: string; runId: string; frontier?: string | null; by: StopRecord['by'] }) {
      let stop = stops.get(runKey(sessionId, runId));
      if (!stop) {
        existing(sessionId);
        stop = { sessionId, runId, frontier, by: stopBy(by), requestedAt: new Date() };
        stops.set(runKey(sessionId, runId), stop);
      }
      hub.notify(stop.sessionId);
      return structuredClone(stop);
    },
    async findStop(sessionId: string, runId: string) {
      const stop = stops.get(runKey(sessionId, runId));
      return stop ? structuredClone(stop) : null;
    },
    async addSteer({ sessionId, runId, message, limit }: { sessionId: string; runId: string; message: SteerRecord['message']; limit?: number }) {
      // No await from the count to the push: the limit holds however many ask at once.
      const sent = steers.find((steer) => steer.sessionId === sessionId && steer.runId === runId && steer.message.id === message.id);
      if (sent) return structuredClone(sent);
      existing(sessionId);
      const held = steers.filter((steer) => steer.sessionId === sessionId && steer.runId === runId).length;
      if (limit !== undefined && held >= limit) throw new LimitReachedError(limit, held);
      const steer: SteerRecord = { id: `str_${randomUUID()}`, sessionId, runId, message: structuredClone(message), createdAt: new Date() };
      steers.push(steer);
      hub.notify(sessionId);
      return structuredClone(steer);
    },
    async listSteers(sessionId: string, runId: string) {
      return steers.filter((steer) => steer.sessionId === sessionId && steer.runId === runId).map((steer) => structuredClone(steer));
    },
    async enqueue({ sessionId, entries, source, limit }: { sessionId: string; entries: QueueEntry[]; source: string; limit?: number }) {
      // No await from the count to the push: the limit holds however many ask at once.
      existing(sessionId);
      const held = queue.filter((item) => item.sessionId === sessionId);
      const queuedAlready = (id: string) => held.find((item) => item.message.id === id);
      const adding = new Set(entries.filter((entry) => !queuedAlready(entry.message.id)).map((entry) => entry.message.id)).size;
      if (limit !== undefined && held.length + adding > limit) throw new LimitReachedError(limit, held.length);
      let last = Math.max(0, ...held.map((item) => item.position));
      const records = entries.map(({ message, runId }) => {
        const found = queue.find((item) => item.sessionId === sessionId && item.message.id === message.id);
        if (found) return found;
        const item: QueuedMessage = {
          sessionId,
          message: structuredClone(message),
          runId,
          source,
          position: (last = nextQueuePosition(last)),
          sendNow: false,
          createdAt: new Date(),
        };
        queue.push(item);
        return item;
      });
      if (adding > 0) hub.notify(sessionId);
      return records.map((item) => structuredClone(item));
    },
    async listQueue(sessionId: string) {
      return queue
        .filter((item) => item.sessionId === sessionId)
        .sort((a, b) => a.position - b.position || a.createdAt.getTime() - b.createdAt.getTime())
        .map((item) => structuredClone(item));
    },
    async updateQueued(sessionId: string, messageId: string, change: { content?: string; position?: number; sendNow?: boolean }) {
      const item = queue.find((candidate) => candidate.sessionId === sessionId && candidate.message.id === messageId);
      if (!item) return null;
      if (change.content !== undefined) item.message = withContent(item.message, change.content);
      if (change.position !== undefined) item.position = change.position;
      if (change.sendNow !== undefined) item.sendNow = change.sendNow;
      hub.notify(sessionId);
      return structuredClone(item);
    },
    async removeQueued(sessionId: string, messageId: string) {
      const index = queue.findIndex((item) => item.sessionId === sessionId && item.message.id === messageId);
      if (index < 0) return false;
      queue.splice(index, 1);
      hub.notify(sessionId);
      return true;
    },
    async scheduleTimer({
      sessionId,
      key,
      fireAt,
      messages,
      limit,
    }: {
      sessionId: string;
      key: string;
      fireAt: Date;
      messages: TimerRecord['messages'];
      limit?: number;
    }) {
      const scheduled = findTimer(sessionId, key);
      if (scheduled) return { timer: structuredClone(scheduled), created: false };
      existing(sessionId);
      const held = [...timers.values()].filter((timer) => timer.sessionId === sessionId && timer.firedAt === null).length;
      if (limit !== undefined && held >= limit) throw new LimitReachedError(limit, held);
      const id = `tmr_${randomUUID()}`;
      const timer: TimerRecord = { id, sessionId, key, fireAt, messages: timerMessages(id, messages), firedAt: null };
      timers.set(id, timer);
      return { timer: structuredClone(timer), created: true };
    },
    async findTimer(sessionId: string, key: string) {
      const timer = findTimer(sessionId, key);
      return timer ? structuredClone(timer) : null;
    },
    async countPendingTimers(sessionId: string) {
      return [...timers.values()].filter((timer) => timer.sessionId === sessionId && timer.firedAt === null).length;
    },
    async dueTimers(now: Date, options: { limit?: number } = {}) {
      return [...timers.values()]
        .filter((timer) => !timer.firedAt && timer.fireAt.getTime() <= now.getTime())
        .sort((a, b) => a.fireAt.getTime() - b.fireAt.getTime())
        .slice(0, options.limit ?? DEFAULT_LIST_LIMIT)
        .map((timer) => structuredClone(timer));
    },
    async markTimerFired(id: string, at: Date) {
      const timer = timers.get(id);
      if (!timer || timer.firedAt) return false;
      timer.firedAt = at;
      return true;
    },
    ...memoryOutbox(database),
    // Accounts live in the database (Better Auth's tables): a store in memory has no one signed up.
    async personByAddress() {
      return null;
    },
    async addressesOfApprovers() {
      return [];
    },
    watch(sessionId: string, listener: (sessionId: string, change: SessionChange) => void) {
      // A closed store's watchers are called no more, though the database lives on in other stores.
      return closed ? () => {} : watchers.watch(sessionId, listener);
    },
    async close() {
      closed = true;
      watchers.removeAll();
    },
  };

  function findTimer(sessionId: string, key: string): TimerRecord | undefined {
    return [...timers.values()].find((timer) => timer.sessionId === sessionId && timer.key === key);
  }

  return store;
}

function runKey(sessionId: string, runId: string): string {
  return JSON.stringify([sessionId, runId]);
}
