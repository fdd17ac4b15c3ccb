-- A thread's log has a size limit (docs/security.md, "What a request may carry"): the session
-- keeps the bytes of its events' JSON, added by each append, so the limit reads one column
-- instead of the log. Sessions from before count what their log holds now.

-- AlterTable
ALTER TABLE "Session" ADD COLUMN "logBytes" INTEGER NOT NULL DEFAULT 0;

-- Backfill
UPDATE "Session" SET "logBytes" = LEAST(
  COALESCE((SELECT SUM(octet_length("data")) FROM "Event" WHERE "Event"."sessionId" = "Session"."id"), 0),
  2147483647
)::integer;
