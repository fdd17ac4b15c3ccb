-- Session keys are chosen by clients (an AG-UI threadId, x-stackbone-session), so each owner has
-- a namespace of its own: a session is stored as `<owner id>/<key>` (server/runtime/session-id.ts),
-- and two owners may use the same key without seeing or locking each other out. Existing
-- sessions move into their owner's namespace, and every table that names a session follows.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
UPDATE "Event" SET "sessionId" = (SELECT "ownerId" FROM "Session" WHERE "Session"."id" = "Event"."sessionId") || '/' || "sessionId" WHERE "sessionId" IN (SELECT "id" FROM "Session");
UPDATE "Interrupt" SET "sessionId" = (SELECT "ownerId" FROM "Session" WHERE "Session"."id" = "Interrupt"."sessionId") || '/' || "sessionId" WHERE "sessionId" IN (SELECT "id" FROM "Session");
UPDATE "RunStop" SET "sessionId" = (SELECT "ownerId" FROM "Session" WHERE "Session"."id" = "RunStop"."sessionId") || '/' || "sessionId" WHERE "sessionId" IN (SELECT "id" FROM "Session");
UPDATE "Timer" SET "sessionId" = (SELECT "ownerId" FROM "Session" WHERE "Session"."id" = "Timer"."sessionId") || '/' || "sessionId" WHERE "sessionId" IN (SELECT "id" FROM "Session");
UPDATE "RunSteer" SET "sessionId" = (SELECT "ownerId" FROM "Session" WHERE "Session"."id" = "RunSteer"."sessionId") || '/' || "sessionId" WHERE "sessionId" IN (SELECT "id" FROM "Session");
UPDATE "QueuedMessage" SET "sessionId" = (SELECT "ownerId" FROM "Session" WHERE "Session"."id" = "QueuedMessage"."sessionId") || '/' || "sessionId" WHERE "sessionId" IN (SELECT "id" FROM "Session");
UPDATE "Session" SET "id" = "ownerId" || '/' || "id";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
