import { z } from 'zod';
import { defineDeepAgent, handlerContext, tool, ToolError, userMessage, type DeepAgentConfig } from '../../../server/agent-kit';
import { recordRefund } from '../tables/refund-ledger';
import { dollars, findOrder, refundContext } from './support-data';
import { supportPhrases } from './support-phrases';

// Each result carries a `summary`: one line in the tool's own words, units included ("$19.99"),
// beside the fields a model reasons over. Not the AI SDK's toModelOutput: the runtime keeps a
// tool's output in the session's log and replays it from there to every model and every client
// (after a restart too), so what the result says is the one thing all of them read. The scripted
// model quotes the summary (server/models/scripted-results.ts); a real model reads it with the fields.

/** An order as lookupOrder answers: a read of the demo's data, so its dry run is the lookup itself. */
function lookUp(orderId: string) {
  const order = findOrder(orderId);
  // ToolError: a message for the model and the person, shown as it is (other errors are not).
  if (!order) throw new ToolError(`No order "${orderId}". Order ids look like ord_42.`);
  return { ...order, summary: `Order ${order.orderId} — ${order.item} for ${order.customer}, ${order.status}, ${dollars(order.total)}.` };
}

const lookupOrder = tool({
  title: 'Look up an order',
  description: 'Look up an order by id: customer, item, total and shipping status.',
  inputSchema: z.object({ orderId: z.string().meta({ title: 'Order', description: 'The order id, e.g. ord_42' }) }),
  execute: async ({ orderId }) => lookUp(orderId),
});

const refundOrder = tool({
  title: 'Refund an order',
  description: 'Refund an order, fully or in part. Needs a human approval.',
  inputSchema: z.object({
    orderId: z.string().meta({ title: 'Order', description: 'The order id, e.g. ord_42' }),
    amount: z.number().positive().meta({ title: 'Refund amount', description: 'Amount to refund, in US dollars', format: 'currency', currency: 'USD' }),
  }),
  execute: async ({ orderId, amount }) => {
    const order = findOrder(orderId);
    if (!order) throw new ToolError(`No order "${orderId}".`);
    if (amount > order.total) throw new ToolError(`Cannot refund ${dollars(amount)}: order ${orderId} totals ${dollars(order.total)}.`);
    const { event, idempotencyKey } = handlerContext();
    const note = (event.payload as { note?: string } | undefined)?.note;
    // The idempotency key, not toolCallId: unique across sessions, the same on a retry after a crash.
    const refund = await recordRefund(idempotencyKey, { orderId, amount, note });
    // Worded from the refund as recorded: a retry after a crash reports the refund made the first time.
    const noted = refund.note ? ` Note: ${refund.note}` : '';
    return { refunded: true, ...refund, summary: `Refunded ${dollars(refund.amount)} on order ${refund.orderId} (refund ${refund.refundId}).${noted}` };
  },
});

// A durable timer: the reminder arrives as a user message when it is due, and the agent
// answers it, in every open tab (docs/turn-control.md, "Timers").
const remindMe = tool({
  title: 'Set a reminder',
  description: 'Remind the user of something later: the reminder comes back into this conversation when it is due.',
  inputSchema: z.object({
    text: z.string().min(1).meta({ title: 'Reminder', description: 'What to remind of, e.g. "check ord_42"' }),
    inSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .meta({ title: 'Remind in (seconds)', description: 'How long from now, in seconds' }),
  }),
  execute: async ({ text, inSeconds }) => {
    const { event, session } = handlerContext();
    // Keyed by the call: carried out again after a crash, it schedules nothing new.
    const timer = await session.schedule(`remind:${event.toolCallId}`, { delay: inSeconds * 1000 }, userMessage(`Reminder: ${text}`));
    return { scheduled: true, at: timer.fireAt, summary: `Reminder set for ${durationWords(inSeconds)} from now: “${text}”.` };
  },
});

const closed = (ticketId: string) => ({ closed: true, ticketId, summary: `Closed ticket ${ticketId}.` });

const closeTicket = tool({
  title: 'Close a ticket',
  description: 'Close a support ticket. Needs a human approval.',
  inputSchema: z.object({ ticketId: z.string().meta({ title: 'Ticket', description: 'The ticket id, e.g. T-7' }) }),
  execute: async ({ ticketId }) => closed(ticketId),
});

const tools = { lookupOrder, refundOrder, closeTicket, remindMe };

/** 10 → "10 seconds", 120 → "2 minutes", 3600 → "1 hour": the largest unit that divides it. */
function durationWords(seconds: number): string {
  const [size, unit] = (
    [
      [86_400, 'day'],
      [3_600, 'hour'],
      [60, 'minute'],
    ] as const
  ).find(([size]) => seconds % size === 0) ?? [1, 'second'];
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The support agent's definition. */
const supportConfig = {
  name: 'support',
  displayName: 'Support',
  description: 'Customer support: looks up orders, refunds them and closes tickets, with a human approving refunds and closures.',
  suggestions: ['Look up order ord_42', 'Refund order ord_42 for 19.99', 'Refund order ord_1 for 129', 'Close ticket T-7'],
  model: 'openai/gpt-4o-mini',
  // A person may switch the thread to Claude in the chat's picker (docs/models.md, "Choosing a model").
  models: [
    { id: 'openai/gpt-4o-mini', label: 'GPT-4o mini' },
    { id: 'anthropic/claude-sonnet-4-6', label: 'Claude Sonnet 4.6' },
  ],
  instructions:
    'You are a customer support agent. Look orders up before acting on them. Refunds and ticket closures need a human approval: ask for them with the tools, never promise them. Be brief.',
  tools,
  // What the offline scripted model understands, one sentence per tool (support-phrases.ts).
  offline: { phrases: Object.values(supportPhrases) },
  // What a replay runs instead of a tool (docs/replay.md, "Dry runs"): a lookup only reads, and
  // the demo's closure answers from its input alone. A refund moves money and a reminder
  // schedules one: they have none, so a replay answers them with the recorded result.
  dryRun: { lookupOrder: ({ orderId }) => lookUp(orderId), closeTicket: ({ ticketId }) => closed(ticketId) },
  toolApproval: {
    lookupOrder: 'approved',
    refundOrder: {
      policy: 'user-approval',
      allowEdit: true,
      approvalSchema: z.object({
        note: z.string().max(500).optional().meta({ title: 'Note', description: 'Kept with the refund in the ledger; the agent reads it in the result.' }),
      }),
      // Worded from the call's arguments alone (docs/hitl.md, "The interrupt"): it states what
      // this call would do, no more; whether the order allows it is the tool's to check.
      describe: (input) => `Refund ${dollars(input.amount)} on order ${input.orderId}`,
      // What the approver needs beyond the arguments, looked up when the request opens (docs/hitl.md, "Approval context").
      context: refundContext,
      ttl: '24h',
      // On a public chat (STACKBONE_WEB_ACCESS=open) the customer asks, the desk approves: a
      // browser without a key cannot approve its own refund (docs/security.md, "Approvers").
      approvers: 'key-holders',
      // A refund over $100 needs two approvers, e.g. the desk in the chat or Studio and the
      // refunds desk by its emailed link (docs/approvals.md, "Quorum and separation of duties").
      // Such a refund is opened without `edit`; a smaller one may be edited, and the edit is
      // counted again: editing it past $100 is refused (docs/approvals.md, "Edits are counted again").
      quorum: (input) => (input.amount > 100 ? 2 : 1),
    },
    closeTicket: { policy: 'user-approval', describe: (input) => `Close ticket ${input.ticketId}` },
  },
  // Every refund request is mailed to the refunds desk, with one-click Approve and Reject links
  // when its address may decide the refund: on a keyed server, when STACKBONE_APPROVER_EMAILS
  // binds it to a key (docs/approvals.md, "A link counts as a person"). Without
  // STACKBONE_SMTP_URL the message is not sent; `npm run dev` writes it to .data/mail/.
  notify: { tools: { refundOrder: { email: 'refunds@example.com' } } },
  // Refunds move money and closures close things: a stateless chat call (no session header)
  // cannot wait for a person, so it is refused them (docs/internals/wires.md, "Stateless turns").
  statelessApproval: 'deny',
  // Lookups of one step run side by side; refunds write the ledger, so they go one at a time
  // (docs/turn-control.md, "Concurrent tools").
  toolLanes: { refundOrder: 'ledger' },
} satisfies DeepAgentConfig<typeof tools>;

export default defineDeepAgent(supportConfig);
