// Seed snippet, verbatim but for its imports: shared/reference/a2-tools-and-approvals.md,
// "Read the handler context" (server/set-reminder.ts).
import { tool } from 'ai';
import { handlerContext, inputs } from '@/server/runtime';
import { z } from 'zod';

export const setReminder = tool({
  description: 'Set a reminder for yourself',
  inputSchema: z.object({
    delaySeconds: z
      .number()
      .int()
      .min(1)
      .max(6 * 24 * 60 * 60),
    reminder: z.string(),
  }),
  execute: async ({ delaySeconds, reminder }, { toolCallId }) => {
    const ctx = handlerContext();
    await ctx.session.schedule(
      `reminder:${toolCallId}`,
      { delay: `${delaySeconds}s` },
      ...inputs.message({
        id: `reminder:${ctx.event.id}`,
        role: 'user',
        parts: [{ type: 'text', text: `Reminder: ${reminder}` }],
      }),
    );

    return { scheduled: true, delaySeconds };
  },
});
