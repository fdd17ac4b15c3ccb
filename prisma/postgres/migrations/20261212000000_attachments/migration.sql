-- Attachments counted for their owner (docs/models.md, "Attachments"): the bytes stored and the
-- uploads of the last hour per owner, and which uploads a message named, so that one no message
-- names is swept after a grace period. The bytes themselves stay in attachment storage.

-- CreateTable
CREATE TABLE "Attachment" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "size" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimedAt" TIMESTAMP(3),
    "sweptAt" TIMESTAMP(3),

    CONSTRAINT "Attachment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Attachment_ownerId_createdAt_idx" ON "Attachment"("ownerId", "createdAt");

-- CreateIndex
CREATE INDEX "Attachment_claimedAt_createdAt_idx" ON "Attachment"("claimedAt", "createdAt");
