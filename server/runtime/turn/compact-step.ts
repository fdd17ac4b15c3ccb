// Compacting a conversation that outgrew its agent's context budget, before a model step
// (docs/models.md, "Long threads"): one call of the thread's model, with no tools, asked to
// summarise the older turns; when that call fails, their bulky tool results are trimmed instead,
// so the turn still runs. Returns the compaction for the runner to write before the step uses it
// (a crash before the write only means the summary is made again).
import { streamText, type LanguageModel } from 'ai';
import type { DeepAgent } from '../../authoring';
import type { ContextCompaction, TokenUsage } from '../../store/events';
import { resolveModel } from '../../models/resolve';
import { SUMMARY_INSTRUCTIONS, summaryRequest } from '../../models/summary-request';
import { planCompaction, tokensAfter, transcriptOf, trimmedResult } from '../context';
import { logFailure } from '../errors';
import type { Conversation } from '../session';
import { tokenUsage } from './model-step';

export async function compactIfOverBudget(options: {
  agent: DeepAgent;
  /** The model the conversation runs on (the thread's choice: docs/models.md, "Choosing a model"); it writes the summary too. */
  model: string | LanguageModel;
  conversation: Conversation;
  signal: AbortSignal;
  /** Names the call in the server's log when the summary fails. */
  what: string;
}): Promise<ContextCompaction | undefined> {
  const { agent, conversation, signal } = options;
  const plan = planCompaction(conversation, agent.contextBudget);
  if (!plan) return undefined;
  const resolved = resolveModel(options.model);
  let compaction: Omit<ContextCompaction, 'tokensAfter'>;
  try {
    const { text, usage } = await summarise(resolved.model, transcriptOf(plan.older), agent.maxRetries, signal);
    compaction = {
      throughMessageId: plan.throughMessageId,
      method: 'summary',
      summary: text,
      tokensBefore: plan.tokensBefore,
      ...(usage ? { usage } : {}),
      model: { provider: resolved.provider, id: resolved.modelId },
    };
  } catch (error) {
    // A stop ends the turn; it does not compact anything.
    if (signal.aborted) return undefined;
    const reference = logFailure(`the summary call of ${options.what}`, error);
    const trimmed = plan.older.filter((message) => message.role === 'tool' && trimmedResult(message) !== message);
    // A trim that cuts nothing changes nothing sent: the next step tries the summary again.
    if (trimmed.length === 0) return undefined;
    const chars = trimmed.reduce((sum, message) => sum + message.content.length, 0);
    compaction = {
      throughMessageId: plan.throughMessageId,
      method: 'trim',
      summary: `The summary call failed (ref ${reference}), so ${trimmed.length} older tool result${trimmed.length === 1 ? ' was' : 's were'} trimmed instead (${chars} characters).`,
      tokensBefore: plan.tokensBefore,
    };
  }
  return { ...compaction, tokensAfter: tokensAfter(conversation, plan, compaction) };
}

/** One model call with no tools: the summary's text, and what it cost. */
async function summarise(
  model: ReturnType<typeof resolveModel>['model'],
  transcript: string[],
  maxRetries: number,
  signal: AbortSignal,
): Promise<{ text: string; usage?: TokenUsage }> {
  const result = streamText({
    model,
    instructions: SUMMARY_INSTRUCTIONS,
    messages: [{ role: 'user', content: summaryRequest(transcript) }],
    abortSignal: signal,
    maxRetries,
    onError: () => undefined,
  });
  let text = '';
  let usage: TokenUsage | undefined;
  for await (const part of result.stream) {
    if (part.type === 'text-delta') text += part.text;
    else if (part.type === 'finish-step') usage = tokenUsage(part.usage);
    else if (part.type === 'error') throw part.error;
  }
  if (!text.trim()) throw new Error('The summary call answered no text.');
  return { text: text.trim(), usage };
}
