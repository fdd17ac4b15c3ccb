-- Stops requested for runs: kept beside the log, not in it (a stop must not move the head
-- while a run holds the session). The first stop of a run wins (runId is the key).

-- CreateTable
CREATE TABLE "RunStop" (
    "runId" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "frontier" TEXT,
    "by" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RunStop_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RunStop_sessionId_idx" ON "RunStop"("sessionId");
