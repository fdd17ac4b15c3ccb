// A fixture for the real-provider tests (listed only with STACKBONE_FIXTURE_AGENTS=1): the
// support agent on an Anthropic model, so tests/integration/real-providers.test.ts runs its flows
// over the Anthropic Messages API too; it tries a failed call once more, not twice (README, "Models").
import { defineDeepAgent } from '../agent-kit';
import support from './support';

export default defineDeepAgent({
  ...support,
  models: undefined,
  name: 'support-claude',
  displayName: 'Support on Claude',
  model: 'anthropic/claude-sonnet-4-6',
  maxRetries: 1,
});
