// Seed 004 (experimental-a2, "Tools and approvals"), "Append from the server": the snippet as its
// document writes it, byte for byte below this comment; its imports resolve through
// tests/seeds/tsconfig.json to this app's names (docs/seed-names.md).
import { inputs } from 'experimental-a2/ai'
import { assistant } from './assistant'

export async function appendServerMessage(sessionId: string, text: string) {
  await assistant.session(sessionId).append(
    ...inputs.message({
      id: crypto.randomUUID(),
      role: 'user',
      parts: [{ type: 'text', text }],
    }),
  )
}
