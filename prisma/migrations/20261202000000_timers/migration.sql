-- Timers: inputs a session is to receive at a time, one per (session, key), fired once.

-- CreateTable
CREATE TABLE "Timer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fireAt" DATETIME NOT NULL,
    "messages" TEXT NOT NULL,
    "firedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Timer_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Timer_sessionId_key_key" ON "Timer"("sessionId", "key");

-- CreateIndex
CREATE INDEX "Timer_firedAt_fireAt_idx" ON "Timer"("firedAt", "fireAt");
