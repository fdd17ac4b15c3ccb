// Which backend answers an agent's model (README, "Models"; server/models/resolve.ts).
import { group } from './group';
import { choice, text, whole } from './variable';

export const models = group('Models. With none of these set, the built-in scripted model answers (offline, deterministic).', {
  OPENAI_API_KEY: text({ description: 'openai/* models go to OpenAI, or to the server at OPENAI_BASE_URL.' }),
  OPENAI_BASE_URL: text({ description: 'Any OpenAI-compatible server: Ollama, vLLM, LM Studio (e.g. http://localhost:11434/v1).' }),
  OPENAI_API: choice(
    {
      description:
        'Which OpenAI API openai/* models speak: `responses` or `chat`. Default: the Responses API at OpenAI, chat completions at an OPENAI_BASE_URL (set `responses` for a server that has it).',
    },
    ['responses', 'chat'],
    undefined,
  ),
  ANTHROPIC_API_KEY: text({ description: 'anthropic/* models go to Anthropic, or to the server at ANTHROPIC_BASE_URL.' }),
  ANTHROPIC_BASE_URL: text({ description: 'Any Anthropic-compatible server.' }),
  AI_GATEWAY_API_KEY: text({ description: 'The Vercel AI Gateway, for every model without a key of its own.' }),
  VERCEL_OIDC_TOKEN: text({ description: 'Set by Vercel when deployed there: the AI Gateway accepts it instead of AI_GATEWAY_API_KEY.' }),
  STACKBONE_MODEL: choice({ description: "'scripted' forces the scripted model even when keys are set (the tests do this)." }, ['scripted'], undefined),
  STACKBONE_SCRIPTED_DELAY_MS: whole(
    { description: 'Milliseconds the scripted model waits between chunks, to watch streaming and try Stop.' },
    'milliseconds',
    0,
  ),
});
