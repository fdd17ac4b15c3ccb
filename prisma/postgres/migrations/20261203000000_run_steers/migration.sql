-- Guidance for running runs, kept beside the log like stops (a running run holds the head).

-- CreateTable
CREATE TABLE "RunSteer" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunSteer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunSteer_runId_idx" ON "RunSteer"("runId");

-- AddForeignKey
ALTER TABLE "RunSteer" ADD CONSTRAINT "RunSteer_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;
