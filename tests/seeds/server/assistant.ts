// Not a seed snippet: seed 004's later examples import `assistant` from "the agent from Agents",
// a page the seeds do not include. This stands in for it — a plain agent with the seed's
// setReminder among its tools, as the seed says to add it ("add setReminder to its tools").
import { defineDeepAgent } from '@/server/agent-kit';
import { setReminder } from './set-reminder';

export const assistant = defineDeepAgent({
  name: 'assistant',
  model: 'openai/gpt-4o-mini',
  tools: { setReminder },
});
