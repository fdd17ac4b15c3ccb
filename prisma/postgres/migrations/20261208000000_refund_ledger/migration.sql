-- The support demo's refund ledger: an app's own table, keyed by the tool call's idempotency key
-- (handlerContext().idempotencyKey), so a refund carried out again is recorded once.

-- CreateTable
CREATE TABLE "Refund" (
    "idempotencyKey" TEXT NOT NULL,
    "refundId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("idempotencyKey")
);

-- CreateIndex
CREATE UNIQUE INDEX "Refund_refundId_key" ON "Refund"("refundId");

