-- A run id is the client's choice (an AG-UI runId): it names a run only within its session, so a
-- stop or a steer is kept and found by (session, run), never by the run id alone.

-- DropIndex
DROP INDEX "RunSteer_runId_idx";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RunStop" (
    "sessionId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "frontier" TEXT,
    "by" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("sessionId", "runId"),
    CONSTRAINT "RunStop_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_RunStop" ("by", "createdAt", "frontier", "runId", "sessionId") SELECT "by", "createdAt", "frontier", "runId", "sessionId" FROM "RunStop";
DROP TABLE "RunStop";
ALTER TABLE "new_RunStop" RENAME TO "RunStop";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "RunSteer_sessionId_runId_idx" ON "RunSteer"("sessionId", "runId");

