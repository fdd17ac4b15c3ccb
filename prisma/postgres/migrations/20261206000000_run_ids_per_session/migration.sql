-- A run id is the client's choice (an AG-UI runId): it names a run only within its session, so a
-- stop or a steer is kept and found by (session, run), never by the run id alone.

-- DropIndex
DROP INDEX "RunStop_sessionId_idx";

-- DropIndex
DROP INDEX "RunSteer_runId_idx";

-- AlterTable
ALTER TABLE "RunStop" DROP CONSTRAINT "RunStop_pkey",
ADD CONSTRAINT "RunStop_pkey" PRIMARY KEY ("sessionId", "runId");

-- CreateIndex
CREATE INDEX "RunSteer_sessionId_runId_idx" ON "RunSteer"("sessionId", "runId");

