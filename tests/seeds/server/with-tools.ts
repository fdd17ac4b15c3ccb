// Seed 004 (experimental-a2, "Tools and approvals"), "Add tools and approval": the snippet as its
// document writes it, byte for byte below this comment; its imports resolve through
// tests/seeds/tsconfig.json to this app's names (docs/seed-names.md).
import { tool } from 'ai'
import { z } from 'zod'
import { agent } from 'experimental-a2/ai/server'

const tools = {
  closeTicket: tool({
    description: 'Close a resolved support ticket',
    inputSchema: z.object({ ticketId: z.string() }),
    execute: async ({ ticketId }, { toolCallId }) => {
      // your side effect; toolCallId makes a stable idempotency key:
      // await closeTicket(ticketId, { idempotencyKey: toolCallId })
      return { ticketId, closed: true }
    },
  }),
}

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
})
