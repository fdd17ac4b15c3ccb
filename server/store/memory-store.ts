// An EventStore that lives in memory. It backs stateless turns (a session that is thrown
// away with the request) and the runtime's unit tests; it keeps the same compare-and-set
// rule as the database stores. Its watchers hear its own writes (there is no other process).
import { randomUUID } from 'node:crypto';
import type { SessionEvent, StoredEvent } from '../events';
import { createWatchHub, storeWatchers } from './session-watch';
import { ConcurrentAppendError, type AppendOptions, type EventStore, type InterruptRow, type PendingInterruptsOptions, type SessionRecord, type QueuedMessage, type SessionChange, type SteerRecord, type StopRecord, type TimerRecord } from './types';
import { timerMessages } from './timer-messages';

export function createMemoryStore(): EventStore & { appendCalls: number } {
  const sessions = new Map<string, SessionRecord>();
  const logs = new Map<string, StoredEvent[]>();
  const interrupts = new Map<string, InterruptRow>();
  /** By runKey(sessionId, runId): a run id names a run only within its session. */
  const stops = new Map<string, StopRecord>();
  const timers = new Map<string, TimerRecord>();
  const steers: SteerRecord[] = [];
  const queue: QueuedMessage[] = [];
  const hub = createWatchHub();
  const watchers = storeWatchers(hub);
  const store = {
    kind: 'memory' as const,
    appendCalls: 0,
    async ensureSession({ id, ownerId, agent }: { id: string; ownerId: string; agent: string }) {
      let session = sessions.get(id);
      if (!session) {
        const now = new Date();
        session = { id, ownerId, agent, title: null, headSeq: 0, status: 'idle', leaseUntil: null, createdAt: now, updatedAt: now };
        sessions.set(id, session);
        logs.set(id, []);
      }
      return { ...session };
    },
    async getSession(id: string) {
      const session = sessions.get(id);
      return session ? { ...session } : null;
    },
    async listSessions(ownerId: string, options: { limit?: number; agent?: string } = {}) {
      return [...sessions.values()]
        .filter((session) => session.ownerId === ownerId && (!options.agent || session.agent === options.agent))
        .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
        .slice(0, options.limit ?? 50)
        .map((session) => ({ ...session }));
    },
    async readEvents(sessionId: string, afterSeq = 0) {
      return (logs.get(sessionId) ?? []).filter((event) => event.seq > afterSeq).map((event) => structuredClone(event));
    },
    async append(sessionId: string, expectedSeq: number, events: SessionEvent[], options: AppendOptions = {}) {
      store.appendCalls++;
      if (options.create) {
        if (expectedSeq !== 0) throw new Error(`A new session starts at seq 0 (got ${expectedSeq}).`);
        if (sessions.has(sessionId)) throw new ConcurrentAppendError(sessionId, expectedSeq);
        await store.ensureSession({ id: sessionId, ...options.create });
      }
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No session "${sessionId}".`);
      if (session.headSeq !== expectedSeq) throw new ConcurrentAppendError(sessionId, expectedSeq);
      const at = new Date().toISOString();
      const log = logs.get(sessionId)!;
      events.forEach((event, index) => log.push({ seq: expectedSeq + index + 1, at, event: structuredClone(event) }));
      session.headSeq = expectedSeq + events.length;
      session.updatedAt = new Date();
      if (options.status) session.status = options.status;
      if (options.leaseUntil !== undefined) session.leaseUntil = options.leaseUntil;
      if (options.title !== undefined) session.title = options.title;
      for (const event of events) {
        if (event.type === 'interrupts_opened') {
          for (const record of event.interrupts) {
            interrupts.set(record.id, { id: record.id, sessionId, ownerId: session.ownerId, agent: record.agent, status: 'pending', record, createdAt: new Date(), decidedAt: null });
          }
        } else if (event.type === 'interrupt_decided') {
          const row = interrupts.get(event.interruptId);
          if (row) Object.assign(row, { status: 'decided', decidedAt: new Date() });
        }
      }
      hub.notify(sessionId, 'appended');
      return { headSeq: session.headSeq };
    },
    async findInterrupt(id: string) {
      const row = interrupts.get(id);
      return row ? structuredClone(row) : null;
    },
    async listPendingInterrupts(ownerId: string, options: PendingInterruptsOptions = {}) {
      const keptForKeys = (row: InterruptRow) => options.keyHolder === true && row.record.approvers === 'key-holders' && row.ownerId.startsWith('browser:');
      return [...interrupts.values()]
        .filter((row) => (row.ownerId === ownerId || keptForKeys(row)) && row.status === 'pending')
        .reverse()
        .slice(0, options.limit ?? 100)
        .map((row) => structuredClone(row));
    },
    async listRecoverable(now: Date) {
      const stale = [...sessions.values()].filter((session) => session.status === 'running' && session.leaseUntil && session.leaseUntil < now).map((session) => session.id);
      const expired = [...interrupts.values()].filter((row) => row.status === 'pending' && row.record.expiresAt && Date.parse(row.record.expiresAt) <= now.getTime()).map((row) => row.sessionId);
      const queued = queue.filter((item) => sessions.get(item.sessionId)?.status === 'idle').map((item) => item.sessionId);
      return [...new Set([...stale, ...expired, ...queued])];
    },
    async renewLease(sessionId: string, expectedSeq: number, until: Date) {
      const session = sessions.get(sessionId);
      if (!session || session.headSeq !== expectedSeq) return false;
      session.leaseUntil = until;
      return true;
    },
    async requestStop({ sessionId, runId, frontier = null, by }: { sessionId: string; runId: string; frontier?: string | null; by: StopRecord['by'] }) {
      let stop = stops.get(runKey(sessionId, runId));
      if (!stop) {
        if (!sessions.has(sessionId)) throw new Error(`No session "${sessionId}".`);
        stop = { sessionId, runId, frontier, by: { source: by.source, ...(by.ownerId !== undefined ? { ownerId: by.ownerId } : {}) }, requestedAt: new Date() };
        stops.set(runKey(sessionId, runId), stop);
      }
      hub.notify(stop.sessionId);
      return structuredClone(stop);
    },
    async findStop(sessionId: string, runId: string) {
      const stop = stops.get(runKey(sessionId, runId));
      return stop ? structuredClone(stop) : null;
    },
    async addSteer({ sessionId, runId, message }: { sessionId: string; runId: string; message: SteerRecord['message'] }) {
      const existing = steers.find((steer) => steer.sessionId === sessionId && steer.runId === runId && steer.message.id === message.id);
      if (existing) return structuredClone(existing);
      if (!sessions.has(sessionId)) throw new Error(`No session "${sessionId}".`);
      const steer: SteerRecord = { id: `str_${randomUUID()}`, sessionId, runId, message: structuredClone(message), createdAt: new Date() };
      steers.push(steer);
      hub.notify(sessionId);
      return structuredClone(steer);
    },
    async listSteers(sessionId: string, runId: string) {
      return steers.filter((steer) => steer.sessionId === sessionId && steer.runId === runId).map((steer) => structuredClone(steer));
    },
    async enqueue({ sessionId, message, runId, source }: { sessionId: string; message: QueuedMessage['message']; runId: string; source: string }) {
      const existing = queue.find((item) => item.sessionId === sessionId && item.message.id === message.id);
      if (existing) return structuredClone(existing);
      if (!sessions.has(sessionId)) throw new Error(`No session "${sessionId}".`);
      const last = Math.max(0, ...queue.filter((item) => item.sessionId === sessionId).map((item) => item.position));
      const item: QueuedMessage = { sessionId, message: structuredClone(message), runId, source, position: last + 1, sendNow: false, createdAt: new Date() };
      queue.push(item);
      hub.notify(sessionId);
      return structuredClone(item);
    },
    async listQueue(sessionId: string) {
      return queue.filter((item) => item.sessionId === sessionId).sort((a, b) => a.position - b.position).map((item) => structuredClone(item));
    },
    async updateQueued(sessionId: string, messageId: string, change: { content?: string; position?: number; sendNow?: boolean }) {
      const item = queue.find((candidate) => candidate.sessionId === sessionId && candidate.message.id === messageId);
      if (!item) return null;
      if (change.content !== undefined) item.message = { ...item.message, content: change.content } as QueuedMessage['message'];
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
    async scheduleTimer({ sessionId, key, fireAt, messages }: { sessionId: string; key: string; fireAt: Date; messages: TimerRecord['messages'] }) {
      const existing = [...timers.values()].find((timer) => timer.sessionId === sessionId && timer.key === key);
      if (existing) return { timer: structuredClone(existing), created: false };
      if (!sessions.has(sessionId)) throw new Error(`No session "${sessionId}".`);
      const id = `tmr_${randomUUID()}`;
      const timer: TimerRecord = { id, sessionId, key, fireAt, messages: timerMessages(id, messages), firedAt: null };
      timers.set(id, timer);
      return { timer: structuredClone(timer), created: true };
    },
    async findTimer(sessionId: string, key: string) {
      const timer = [...timers.values()].find((candidate) => candidate.sessionId === sessionId && candidate.key === key);
      return timer ? structuredClone(timer) : null;
    },
    async countPendingTimers(sessionId: string) {
      return [...timers.values()].filter((timer) => timer.sessionId === sessionId && timer.firedAt === null).length;
    },
    async dueTimers(now: Date, options: { limit?: number } = {}) {
      return [...timers.values()]
        .filter((timer) => !timer.firedAt && timer.fireAt.getTime() <= now.getTime())
        .sort((a, b) => a.fireAt.getTime() - b.fireAt.getTime())
        .slice(0, options.limit ?? 100)
        .map((timer) => structuredClone(timer));
    },
    async markTimerFired(id: string, at: Date) {
      const timer = timers.get(id);
      if (!timer || timer.firedAt) return false;
      timer.firedAt = at;
      return true;
    },
    watch(sessionId: string, listener: (sessionId: string, change: SessionChange) => void) {
      return watchers.watch(sessionId, listener);
    },
    async close() {
      watchers.removeAll();
    },
  };
  return store;
}

function runKey(sessionId: string, runId: string): string {
  return JSON.stringify([sessionId, runId]);
}
