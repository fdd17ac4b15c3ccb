-- A forked thread names the session it was forked from (docs/time-travel.md): the sidebar and
-- Studio list a fork under its parent.

-- AlterTable
ALTER TABLE "Session" ADD COLUMN "parentId" TEXT;

-- CreateIndex
CREATE INDEX "Session_parentId_idx" ON "Session"("parentId");
