// The support agent's little world: a fixed order book. Its refunds are kept in the database
// (../tables/refund-ledger.ts).

export interface Order {
  orderId: string;
  customer: string;
  item: string;
  total: number;
  status: 'processing' | 'shipped' | 'delivered';
}

const ORDERS: Order[] = [
  { orderId: 'ord_42', customer: 'Ada Lovelace', item: 'Analytical Engine manual', total: 19.99, status: 'delivered' },
  { orderId: 'ord_7', customer: 'Grace Hopper', item: 'Compiler stickers', total: 4.5, status: 'shipped' },
  { orderId: 'ord_1', customer: 'Alan Turing', item: 'Enigma replica', total: 129, status: 'processing' },
];

export function findOrder(orderId: string): Order | undefined {
  const known = ORDERS.find((order) => order.orderId === orderId);
  if (known) return known;
  // Any other well-formed id is a plausible order, so every demo phrase works.
  const match = /^ord_(\d+)$/.exec(orderId);
  if (!match) return undefined;
  return { orderId, customer: 'Demo Customer', item: 'Demo item', total: Number(match[1]) || 10, status: 'delivered' };
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * The demo's amounts are US dollars: 19.99 → "$19.99". The tools say so in their own words (a
 * result's `summary`, an approval's description), since a bare number carries no currency for
 * a person or a model to read. Anything but a number is shown as it is.
 */
export function dollars(amount: unknown): string {
  return typeof amount === 'number' && Number.isFinite(amount) ? USD.format(amount) : String(amount);
}

/**
 * What a refund's approver needs that its arguments do not say (docs/hitl.md, "Approval
 * context"): whose order, what was bought, what it cost — and when the refund is more than that.
 * The card shows them under the refund's own fields (order, amount).
 */
export function refundContext(input: { orderId: string; amount: number }) {
  const order = findOrder(input.orderId);
  if (!order) return { facts: [], risk: `There is no order ${input.orderId}: the refund will be refused.` };
  return {
    facts: [
      { label: 'Customer', value: order.customer },
      { label: 'Item', value: order.item },
      { label: 'Order total', value: dollars(order.total) },
    ],
    ...(input.amount > order.total ? { risk: `The refund is more than the order cost (${dollars(order.total)}).` } : {}),
  };
}
