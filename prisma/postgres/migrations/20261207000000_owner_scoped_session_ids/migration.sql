-- Session keys are chosen by clients (an AG-UI threadId, x-stackbone-session), so each owner has
-- a namespace of its own: a session is stored as `<owner id>/<key>` (server/runtime/session-id.ts),
-- and two owners may use the same key without seeing or locking each other out. Existing
-- sessions move into their owner's namespace, and every table that names a session follows through
-- its foreign key (ON UPDATE CASCADE).
UPDATE "Session" SET "id" = "ownerId" || '/' || "id";
