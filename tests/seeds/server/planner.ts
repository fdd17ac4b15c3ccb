// Seed 000 (Stackbone, "Tools and shared state"), "Shared state and generative UI": the
// snippet byte for byte below its one added line, the import it leaves out (docs/seed-names.md).
import { defineDeepAgent } from '@/server/agent-kit'
export default defineDeepAgent({
  name: 'planner',
  model: 'openai/gpt-4o-mini',
  editableState: {
    draft: { type: 'string' },
  },
});
