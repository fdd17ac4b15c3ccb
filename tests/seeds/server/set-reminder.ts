// Seed 004 (experimental-a2, "Tools and approvals"), "Read the handler context": the snippet as its
// document writes it, byte for byte below this comment; its imports resolve through
// tests/seeds/tsconfig.json to this app's names (docs/seed-names.md).
import { tool } from 'ai'
import { handlerContext, inputs } from 'experimental-a2/ai'
import { z } from 'zod'

export const setReminder = tool({
  description: 'Set a reminder for yourself',
  inputSchema: z.object({
    delaySeconds: z.number().int().min(1).max(6 * 24 * 60 * 60),
    reminder: z.string(),
  }),
  execute: async ({ delaySeconds, reminder }, { toolCallId }) => {
    const ctx = handlerContext()
    await ctx.session.schedule(
      `reminder:${toolCallId}`,
      { delay: `${delaySeconds}s` },
      ...inputs.message({
        id: `reminder:${ctx.event.id}`,
        role: 'user',
        parts: [{ type: 'text', text: `Reminder: ${reminder}` }],
      }),
    )

    return { scheduled: true, delaySeconds }
  },
})
