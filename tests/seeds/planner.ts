// Seed snippet, verbatim but for its imports: shared/reference/stackbone-tools-and-shared-state.md,
// "Shared state and generative UI" (a planner with an editable draft, no instructions).
import { defineDeepAgent } from '@/server/authoring';

export default defineDeepAgent({
  name: 'taskboard',
  model: 'openai/gpt-4o-mini',
  editableState: {
    draft: { type: 'string' },
  },
});
