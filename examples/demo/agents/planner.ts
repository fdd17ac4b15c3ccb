import { z } from 'zod';
import { defineDeepAgent, requestInput, tool, type OfflinePhrase } from '../../../server/agent-kit';
import researcher from './researcher';

// Asks the person a question mid-task: the run pauses with an input_required interrupt and
// the tool gets the validated answer when it resumes.
const askUser = tool({
  title: 'Question for you',
  description: 'Ask the user a question and wait for the answer.',
  inputSchema: z.object({ question: z.string().min(1).meta({ title: 'Question', description: 'The question, as the user will read it' }) }),
  execute: async ({ question }) => ask(question),
});

/** Asks and waits: no side effect, so a replay asks the same (the recorded answer replies). */
async function ask(question: string) {
  const { answer } = await requestInput({
    message: question,
    responseSchema: z.object({ answer: z.string().min(1).meta({ title: 'Your answer' }) }),
  });
  // The summary is the exchange in a line, for the chat and the model alike (support.ts says why).
  return { question, answer, summary: `You answered “${answer}” to “${question}”.` };
}

// "ask me a question", "ask me about pricing": the question in the person's words. Planning ("plan
// a launch: …") and research ("research …") are the scripted model's own phrases for the built-in
// write_todos and delegate_task (server/models/scripted-phrases.ts).
const askMe: OfflinePhrase = {
  call: 'ask_user',
  example: 'ask me a question',
  pattern: /^ask\s+me\b\s*(.*)$/i,
  input: (m) => ({ question: questionFrom(m[1]!) }),
};

function questionFrom(rest: string): string {
  const topic = rest.replace(/^:\s*/, '').trim();
  if (topic === '' || /^(?:a\s+question|something)$/i.test(topic)) return 'What should I do next?';
  const about = /^about\s+(.+)$/i.exec(topic);
  if (about) return `What can you tell me about ${about[1]}?`;
  const askFor = /^for\s+(.+)$/i.exec(topic);
  if (askFor) return `What is ${askFor[1]}?`;
  const question = topic.charAt(0).toUpperCase() + topic.slice(1);
  return question.endsWith('?') ? question : `${question}?`;
}

// Besides ask_user, the planner's tools are the built-ins (write_todos, delegate_task) and
// the frontend tools the web app declares per run (they run in the browser).
export default defineDeepAgent({
  name: 'planner',
  displayName: 'Planner',
  description: 'Plans work into a live task list, keeps an editable draft, and delegates research.',
  suggestions: ['Plan a launch: write post, email list, tweet', 'Research durable execution', 'Ask me a question'],
  model: 'openai/gpt-4o-mini',
  instructions:
    'You plan work. Write the plan with write_todos and keep each item\'s status current. Delegate research to the researcher. The shared state has a "draft" the user edits; use it when asked.',
  tools: { ask_user: askUser },
  offline: { phrases: [askMe] },
  dryRun: { ask_user: ({ question }) => ask(question) },
  editableState: { draft: { type: 'string', maxLength: 10_000 } },
  initialState: { todos: [], draft: '' },
  subagents: [researcher],
});
