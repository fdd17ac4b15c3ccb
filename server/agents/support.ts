import { tool } from 'ai';
import { z } from 'zod';
import { defineDeepAgent } from '../define';
import { handlerContext, userMessage, ToolError } from '../runtime';
import { recordRefund } from './refund-ledger';
import { findOrder } from './support-data';

const lookupOrder = tool({
  description: 'Look up an order by id: customer, item, total and shipping status.',
  inputSchema: z.object({ orderId: z.string().describe('e.g. ord_42') }),
  execute: async ({ orderId }) => {
    const order = findOrder(orderId);
    // ToolError: a message for the model and the person, shown as it is (other errors are not).
    if (!order) throw new ToolError(`No order "${orderId}". Order ids look like ord_42.`);
    return order;
  },
});

const refundOrder = tool({
  description: 'Refund an order, fully or in part. Needs a human approval.',
  inputSchema: z.object({
    orderId: z.string(),
    amount: z.number().positive().describe('Amount to refund, in dollars'),
  }),
  execute: async ({ orderId, amount }) => {
    const order = findOrder(orderId);
    if (!order) throw new ToolError(`No order "${orderId}".`);
    if (amount > order.total) throw new ToolError(`Cannot refund ${amount}: order ${orderId} totals ${order.total}.`);
    const { event, idempotencyKey } = handlerContext();
    const note = (event.payload as { note?: string } | undefined)?.note;
    // The idempotency key, not toolCallId: unique across sessions, the same on a retry after a crash.
    const refund = await recordRefund(idempotencyKey, { orderId, amount, note });
    return { refunded: true, ...refund };
  },
});

// A durable timer: the reminder arrives as a user message when it is due, and the agent
// answers it, in every open tab (docs/turn-control.md, "Timers").
const remindMe = tool({
  description: 'Remind the user of something later: the reminder comes back into this conversation when it is due.',
  inputSchema: z.object({
    text: z.string().min(1).describe('What to remind of, e.g. "check ord_42"'),
    inSeconds: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .describe('How long from now'),
  }),
  execute: async ({ text, inSeconds }) => {
    const { event, session } = handlerContext();
    // Keyed by the call: carried out again after a crash, it schedules nothing new.
    const timer = await session.schedule(`remind:${event.toolCallId}`, { delay: inSeconds * 1000 }, userMessage(`Reminder: ${text}`));
    return { scheduled: true, at: timer.fireAt };
  },
});

const closeTicket = tool({
  description: 'Close a support ticket. Needs a human approval.',
  inputSchema: z.object({ ticketId: z.string().describe('e.g. T-7') }),
  execute: async ({ ticketId }) => ({ closed: true, ticketId }),
});

export default defineDeepAgent({
  name: 'support',
  description: 'Customer support: looks up orders, refunds them and closes tickets, with a human approving refunds and closures.',
  suggestions: ['Look up order ord_42', 'Refund order ord_42 for 19.99', 'Close ticket T-7'],
  model: 'openai/gpt-4o-mini',
  instructions:
    'You are a customer support agent. Look orders up before acting on them. Refunds and ticket closures need a human approval: ask for them with the tools, never promise them. Be brief.',
  tools: { lookupOrder, refundOrder, closeTicket, remindMe },
  toolApproval: {
    lookupOrder: 'approved',
    refundOrder: {
      policy: 'user-approval',
      allowEdit: true,
      approvalSchema: z.object({ note: z.string().max(500).optional() }),
      describe: (input) => `Refund order ${input.orderId} for ${input.amount}`,
      ttl: '24h',
      // On a public chat (STACKBONE_WEB_ACCESS=open) the customer asks, the desk approves: a
      // browser without a key cannot approve its own refund (docs/security.md, "Approvers").
      approvers: 'key-holders',
    },
    closeTicket: 'user-approval',
  },
  // Refunds move money and closures close things: a stateless chat call (no session header)
  // cannot wait for a person, so it is refused them (docs/wires.md, "Stateless turns").
  statelessApproval: 'deny',
  // Lookups of one step run side by side; refunds write the ledger, so they go one at a time
  // (docs/turn-control.md, "Concurrent tools").
  toolLanes: { refundOrder: 'ledger' },
});
