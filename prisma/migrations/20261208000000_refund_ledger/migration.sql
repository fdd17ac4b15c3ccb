-- The support demo's refund ledger: an app's own table, keyed by the tool call's idempotency key
-- (handlerContext().idempotencyKey), so a refund carried out again is recorded once.

-- CreateTable
CREATE TABLE "Refund" (
    "idempotencyKey" TEXT NOT NULL PRIMARY KEY,
    "refundId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "amount" REAL NOT NULL,
    "note" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "Refund_refundId_key" ON "Refund"("refundId");

