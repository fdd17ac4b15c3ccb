-- An interrupt's reminder before expiry (docs/approvals.md, "Escalation and
-- reminders"): the recovery sweep finds the interrupts whose reminder is due.

-- AlterTable
ALTER TABLE "Interrupt" ADD COLUMN "remindAt" DATETIME;

-- CreateIndex
CREATE INDEX "Interrupt_status_remindAt_idx" ON "Interrupt"("status", "remindAt");
