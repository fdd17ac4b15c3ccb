// Seed snippet, verbatim but for its imports: shared/reference/a2-tools-and-approvals.md,
// "Add tools and approval" (server/with-tools.ts). experimental-a2's `agent()` is our
// defineDeepAgent (docs/seed-names.md).
import { tool } from 'ai';
import { z } from 'zod';
import { defineDeepAgent as agent } from '@/server/authoring';

const tools = {
  closeTicket: tool({
    description: 'Close a resolved support ticket',
    inputSchema: z.object({ ticketId: z.string() }),
    execute: async ({ ticketId }, { toolCallId }) => {
      // your side effect; toolCallId makes a stable idempotency key:
      // await closeTicket(ticketId, { idempotencyKey: toolCallId })
      return { ticketId, closed: true };
    },
  }),
};

export const toolsAssistant = agent({
  name: 'support-tools',
  model: 'openai/gpt-5.6-terra',
  tools,
  harness: {
    type: 'ai-sdk',
    generation: {
      toolApproval: {
        closeTicket: 'user-approval',
      },
    },
  },
});
