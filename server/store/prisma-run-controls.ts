// The Prisma store's controls of a running run, kept beside the log and never in it: stops
// (docs/hitl.md, "Stopping a run") and steers (docs/turn-control.md, "Steer"). Recording one wakes the session's watchers;
// guidance is counted against its run's limit and written as one step (limited-write.ts).
import { randomUUID } from 'node:crypto';
import { stopBy } from './backend-rules';
import { limitedWrite } from './limited-write';
import { createOnce } from './prisma-errors';
import { steerFromRow, stopFromRow } from './prisma-rows';
import { nameable, type PrismaStoreContext } from './prisma-store-context';
import { LimitReachedError, type EventStore } from './types';

type RunControls = Pick<EventStore, 'requestStop' | 'findStop' | 'addSteer' | 'listSteers'>;

export function prismaRunControls(context: PrismaStoreContext): RunControls {
  const { hot, withClient, withRaw, wakeups } = context;
  return {
    requestStop: ({ sessionId, runId, frontier = null, by }) =>
      withClient(async (db) => {
        const where = { sessionId_runId: { sessionId, runId } };
        // Another caller's stop of the run, found or made between our read and insert, is the stop.
        const { row, created } = await createOnce(
          sessionId,
          () => db.runStop.findUnique({ where }),
          () =>
            wakeups.changing(db, sessionId, (tx) =>
              tx.runStop.create({ data: { runId, sessionId, frontier, by: JSON.stringify(stopBy(by)), createdAt: new Date() } }),
            ),
        );
        if (!created) await wakeups.wakeAlone(db, row.sessionId);
        return stopFromRow(row);
      }),

    findStop: (sessionId, runId) =>
      !nameable(sessionId, runId)
        ? Promise.resolve(null)
        : withRaw(async (raw) => {
            const [row] = await raw.query(hot.stop(sessionId, runId));
            return row ? stopFromRow(row) : null;
          }),

    addSteer: ({ sessionId, runId, message, limit }) =>
      withClient(async (db) => {
        const row = await limitedWrite(
          context,
          db,
          sessionId,
          async (tx) => {
            const taken = await tx.runSteer.findMany({ where: { sessionId, runId } });
            // A resend of guidance the run has is that guidance, not counted again.
            const sent = taken.find((steer) => steerFromRow(steer).message.id === message.id);
            if (sent) return sent;
            if (limit !== undefined && taken.length >= limit) throw new LimitReachedError(limit, taken.length);
            return tx.runSteer.create({ data: { id: `str_${randomUUID()}`, sessionId, runId, message: JSON.stringify(message), createdAt: new Date() } });
          },
          { wake: true },
        );
        return steerFromRow(row);
      }),

    listSteers: (sessionId, runId) =>
      !nameable(sessionId, runId) ? Promise.resolve([]) : withRaw(async (raw) => (await raw.query(hot.steers(sessionId, runId))).map(steerFromRow)),
  };
}
