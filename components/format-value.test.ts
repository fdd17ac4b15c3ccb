import { describe, expect, it } from 'vitest';
import { formatValue, labelledFields, summarize, words } from './format-value';

describe('values as a person reads them', () => {
  it('turns code names into words', () => {
    expect(words('orderId')).toBe('Order id');
    expect(words('in_seconds')).toBe('In seconds');
    expect(words('refundPayment')).toBe('Refund payment');
  });

  it('formats money by the schema’s currency hint, and only then', () => {
    expect(formatValue(19.99, { type: 'number', format: 'currency' }, 'en-US')).toBe('$19.99');
    expect(formatValue(15, { type: 'number', format: 'currency', currency: 'EUR' }, 'en-US')).toBe('€15.00');
    expect(formatValue(12.5, { type: 'number' }, 'en-US')).toBe('12.5');
  });

  it('labels fields from the schema’s titles, in the schema’s order, without raw JSON', () => {
    const schema = {
      type: 'object',
      properties: { orderId: { type: 'string', title: 'Order' }, amount: { type: 'number', title: 'Refund amount', format: 'currency' } },
    };
    expect(labelledFields({ amount: 15, orderId: 'po_42' }, schema, 'en-US')).toEqual([
      { key: 'orderId', label: 'Order', text: 'po_42' },
      { key: 'amount', label: 'Refund amount', text: '$15.00' },
    ]);
    expect(formatValue({ nested: { a: 1 } })).not.toMatch(/[{}"]/);
    expect(formatValue([{ id: 1 }, { id: 2 }])).toBe('2 items');
    expect(formatValue(true)).toBe('Yes');
  });

  it('keeps a gist to one line', () => {
    expect(summarize({ title: 'x'.repeat(200) }).length).toBeLessThanOrEqual(80);
  });
});
