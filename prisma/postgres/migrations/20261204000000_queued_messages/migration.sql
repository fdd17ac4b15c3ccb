-- User messages waiting for the turn in progress to end, kept beside the log like steers.

-- CreateTable
CREATE TABLE "QueuedMessage" (
    "sessionId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "position" DOUBLE PRECISION NOT NULL,
    "sendNow" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QueuedMessage_pkey" PRIMARY KEY ("sessionId","messageId")
);

-- CreateIndex
CREATE INDEX "QueuedMessage_sessionId_position_idx" ON "QueuedMessage"("sessionId", "position");

-- AddForeignKey
ALTER TABLE "QueuedMessage" ADD CONSTRAINT "QueuedMessage_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;
