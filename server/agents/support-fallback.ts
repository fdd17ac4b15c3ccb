// A fixture for the real-provider tests (listed only with STACKBONE_FIXTURE_AGENTS=1): the
// support agent on an OpenAI model that falls back to an Anthropic one, with a short step
// timeout, so tests/integration/real-providers.test.ts proves both over the real providers
// (docs/models.md, "Fallback models", "Timeouts").
import { defineDeepAgent } from '../agent-kit';
import support from './support';

export default defineDeepAgent({
  ...support,
  name: 'support-fallback',
  displayName: 'Support with a fallback',
  model: 'openai/gpt-4o-mini',
  fallbackModels: ['anthropic/claude-sonnet-4-6'],
  maxRetries: 1,
  stepTimeout: '1500ms',
});
