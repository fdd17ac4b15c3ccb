// The support demo's refund ledger, kept in the app's database (the Refund table) — the pattern
// a real side effect should follow (docs/hitl.md, "Exactly once"): keyed by the tool call's
// idempotency key, so the same call carried out again after a crash (attempt 2) returns the
// refund it made the first time, and a provider's `call_0` in two sessions is two refunds. A real
// payment API takes the same key (Stripe's Idempotency-Key header) to the same end.
import { withAppDatabase } from '../../../server/store/app-database';

export interface Refund {
  refundId: string;
  orderId: string;
  amount: number;
  note?: string;
  at: string;
}

/** Records a refund once per idempotency key; a repeat returns the first record, unchanged. */
export async function recordRefund(idempotencyKey: string, refund: Omit<Refund, 'refundId' | 'at'>): Promise<Refund> {
  return withAppDatabase(async (db) => {
    const existing = await db.refund.findUnique({ where: { idempotencyKey } });
    if (existing) return toRefund(existing);
    try {
      return toRefund(
        await db.refund.create({
          data: { idempotencyKey, refundId: `re_${idempotencyKey.slice(-12)}`, orderId: refund.orderId, amount: refund.amount, note: refund.note ?? null },
        }),
      );
    } catch (error) {
      // Two attempts at once (two processes): the key is the primary key, so the other one's row is the refund.
      if ((error as { code?: string }).code !== 'P2002') throw error;
      return toRefund(await db.refund.findUniqueOrThrow({ where: { idempotencyKey } }));
    }
  });
}

function toRefund(row: { refundId: string; orderId: string; amount: number; note: string | null; createdAt: Date }): Refund {
  return {
    refundId: row.refundId,
    orderId: row.orderId,
    amount: row.amount,
    ...(row.note !== null ? { note: row.note } : {}),
    at: row.createdAt.toISOString(),
  };
}

/** The refunds made for an order, oldest first (the demo's tests and anyone curious). */
export async function refundsOf(orderId: string): Promise<Refund[]> {
  const rows = await withAppDatabase((db) => db.refund.findMany({ where: { orderId }, orderBy: { createdAt: 'asc' } }));
  return rows.map(toRefund);
}
