// Seed snippet, verbatim but for its imports: shared/reference/a2-tools-and-approvals.md,
// "Append from the server" (server/append-message.ts).
import { inputs } from '@/server/runtime';
import { assistant } from './assistant';

export async function appendServerMessage(sessionId: string, text: string) {
  await assistant.session(sessionId).append(
    ...inputs.message({
      id: crypto.randomUUID(),
      role: 'user',
      parts: [{ type: 'text', text }],
    }),
  );
}
