// The scripted model's markdown demo (scripted-reply.ts, README "Models"): "show me markdown"
// gets this reply, one word every 25 ms (about 3 s in all), so the chat can be seen rendering
// markdown while it streams (components/markdown.tsx) — a heading, bold, inline code, a list, a
// table, a fenced code block and a link, each half-written at some point of the stream.

/** The message that asks for it: "show me markdown", "show me some markdown", "markdown demo". */
export const MARKDOWN_DEMO_REQUEST = /^(?:(?:show|give)\s+me\s+(?:some\s+)?markdown|markdown\s+demo)$/i;

/** The pause before each word: slow enough to watch the blocks form, quick enough not to wait. */
export const MARKDOWN_DEMO_PACE_MS = 25;

export const MARKDOWN_DEMO = [
  '## Markdown, rendered as it streams',
  '',
  'This reply is **markdown**. The chat shows it formatted while the words arrive, so half-written syntax never shows: an open code fence is already a code block, and bold text has no asterisks.',
  '',
  '- **Bold** and *italic* text',
  '- Inline code such as `po_42` and `refundPayment`',
  '- A link: [the CommonMark help](https://commonmark.org/help/)',
  '',
  '| Order | Item | Total |',
  '| --- | --- | ---: |',
  '| `po_42` | Analytical Engine manual | $19.99 |',
  '| `po_43` | Difference Engine poster | $7.50 |',
  '',
  '```ts',
  'function total(orders: { amount: number }[]): number {',
  '  return orders.reduce((sum, order) => sum + order.amount, 0);',
  '}',
  '```',
].join('\n');
