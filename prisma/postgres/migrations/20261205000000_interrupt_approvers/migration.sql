-- Interrupts only a key holder may approve or reject (docs/security.md, "Approvers"): listed to
-- key holders across the browsers' sessions.

-- AlterTable
ALTER TABLE "Interrupt" ADD COLUMN "approvers" TEXT;

-- CreateIndex
CREATE INDEX "Interrupt_status_approvers_createdAt_idx" ON "Interrupt"("status", "approvers", "createdAt");
