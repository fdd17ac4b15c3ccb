-- Timers: inputs a session is to receive at a time, one per (session, key), fired once.

-- CreateTable
CREATE TABLE "Timer" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fireAt" TIMESTAMP(3) NOT NULL,
    "messages" TEXT NOT NULL,
    "firedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Timer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Timer_sessionId_key_key" ON "Timer"("sessionId", "key");

-- CreateIndex
CREATE INDEX "Timer_firedAt_fireAt_idx" ON "Timer"("firedAt", "fireAt");

-- AddForeignKey
ALTER TABLE "Timer" ADD CONSTRAINT "Timer_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;
