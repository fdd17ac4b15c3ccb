// AG-UI RunAgentInput → the runtime's run request.
import { randomUUID } from 'node:crypto';
import type { Message as AgUiMessage, RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { HttpError } from '../../http/errors';
import type { Attachment, ChatMessage } from '../../store/messages';
import type { InterruptResponse, ClientTool } from '../../runtime';
import { isSessionId, firstIssue } from '../../runtime';

/** A run request as the route takes it: `stateless` when it named no thread (its threadId is then one made up for the stream). */
export type ParsedRunInput = RunAgentInput & { stateless: boolean };

/**
 * Fills in what a hand-written request may leave out and AG-UI's schema requires
 * (docs/internals/wires.md, "Stateless AG-UI runs"): a message's id — a tool result's is made
 * from its call (`tool-result:<toolCallId>`), so the same result sent twice is one message —
 * and, for a run that names no thread, a threadId of its own.
 */
function withDefaults(body: unknown): { body: unknown; stateless: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { body, stateless: false };
  const record = body as Record<string, unknown>;
  const messages = Array.isArray(record.messages)
    ? record.messages.map((message: unknown) => {
        if (typeof message !== 'object' || message === null || (message as { id?: unknown }).id !== undefined) return message;
        const { role, toolCallId } = message as { role?: unknown; toolCallId?: unknown };
        return { ...message, id: role === 'tool' && typeof toolCallId === 'string' ? `tool-result:${toolCallId}` : randomUUID() };
      })
    : record.messages;
  const stateless = record.threadId === undefined || record.threadId === null;
  return { body: { ...record, messages, ...(stateless ? { threadId: `stateless_${randomUUID()}` } : {}) }, stateless };
}

export function parseRunAgentInput(raw: unknown): ParsedRunInput {
  const { body, stateless } = withDefaults(raw);
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const { path, message } = firstIssue(parsed.error);
    const field = path.map(String).join('.') || '(body)';
    throw new HttpError('invalid_request', `Invalid RunAgentInput: ${field}: ${message}`, { field });
  }
  // The same rule as x-stackbone-session on the chat wires: ids that fit in a URL.
  for (const field of ['threadId', 'runId', 'parentRunId'] as const) {
    if (field === 'parentRunId' && parsed.data.parentRunId == null) continue;
    if (!isSessionId(parsed.data[field])) {
      throw new HttpError(field === 'threadId' ? 'invalid_thread_id' : 'invalid_run_id', `${field}: 1 to 256 printable ASCII characters without spaces.`, {
        field,
      });
    }
  }
  return { ...(parsed.data as RunAgentInput), stateless };
}

/** Whether a request seeds shared state: anything but nothing or an empty object. */
export function seedsState(state: unknown): boolean {
  if (state === undefined || state === null) return false;
  return typeof state !== 'object' || Array.isArray(state) || Object.keys(state).length > 0;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && (part as { type?: string }).type === 'text' ? String((part as { text?: string }).text ?? '') : ''))
      .join('');
  }
  return '';
}

/**
 * AG-UI messages in runtime shape; the runtime decides which of them are new. `attachments`: the
 * files each user message's media parts named, as the route looked them up or stored them
 * (content-parts.ts; docs/internals/wires.md, "Content parts").
 */
export function fromAgUiMessages(messages: AgUiMessage[], attachments?: ReadonlyMap<string, Attachment[]>): ChatMessage[] {
  return messages.flatMap((message): ChatMessage[] => {
    switch (message.role) {
      case 'user': {
        const files = attachments?.get(message.id);
        return [{ id: message.id, role: 'user', content: textOf(message.content), ...(files?.length ? { attachments: files } : {}) }];
      }
      case 'system':
      case 'developer':
        return [{ id: message.id, role: message.role, content: message.content }];
      case 'assistant':
        return [
          {
            id: message.id,
            role: 'assistant',
            content: message.content ?? '',
            toolCalls: message.toolCalls?.map((call) => ({ id: call.id, name: call.function.name, input: safeJson(call.function.arguments) })),
          },
        ];
      case 'tool':
        return [
          {
            id: message.id,
            role: 'tool',
            toolCallId: message.toolCallId,
            toolName: '',
            content: textOf(message.content),
            ...(message.error ? { isError: true } : {}),
          },
        ];
      case 'activity':
        // The server's own progress updates, echoed back with the history: not conversation.
        return [];
      default:
        // Reasoning messages are the agent's own output; a client cannot add them.
        return [{ id: message.id, role: 'assistant', content: '' }];
    }
  });
}

/**
 * AG-UI resume entries → decisions for the runtime. An entry's payload is the response the
 * interrupt's responseSchema describes; the runtime reads it against the interrupt
 * (runtime/decisions/read-decision.ts), since only the interrupt says whether it is an approval or
 * the answer to a question.
 */
export function fromAgUiResume(resume: RunAgentInput['resume']): InterruptResponse[] | undefined {
  return resume?.map((entry) => ({ interruptId: entry.interruptId, status: entry.status, ...(entry.payload !== undefined ? { payload: entry.payload } : {}) }));
}

/**
 * A retry rides in `forwardedProps.retry: {retryId}` (AG-UI has no field for it): the run
 * re-runs the thread's failed run (docs/turn-control.md).
 */
export function fromAgUiRetry(forwardedProps: unknown): { retryId: string } | undefined {
  const retry = (forwardedProps as { retry?: unknown } | null | undefined)?.retry;
  if (retry === undefined) return undefined;
  const retryId = (retry as { retryId?: unknown } | null)?.retryId;
  // What a retryId may hold is the runtime's rule for every client id (invalid_id).
  if (typeof retryId !== 'string') {
    throw new HttpError('invalid_request', 'forwardedProps.retry must be {retryId}: a string, new for each retry.', {
      field: 'forwardedProps.retry.retryId',
    });
  }
  return { retryId };
}

/**
 * A run on a new thread forked from another rides in `forwardedProps.fork` (docs/time-travel.md):
 * `{threadId, atMessageId}` resends the request's last user message in place of `atMessageId`
 * (edit-and-resend); with `regenerate: true`, the assistant reply `atMessageId` is asked again.
 * The request's own threadId is the new thread's.
 */
export function fromAgUiFork(forwardedProps: unknown): { threadId: string; atMessageId: string; regenerate: boolean } | undefined {
  const fork = (forwardedProps as { fork?: unknown } | null | undefined)?.fork;
  if (fork === undefined || fork === null) return undefined;
  const { threadId, atMessageId, regenerate } = fork as { threadId?: unknown; atMessageId?: unknown; regenerate?: unknown };
  if (!isSessionId(threadId) || typeof atMessageId !== 'string' || (regenerate !== undefined && typeof regenerate !== 'boolean')) {
    throw new HttpError(
      'invalid_request',
      'forwardedProps.fork must be {threadId, atMessageId, regenerate?}: the thread to fork, the message to fork at, and whether to regenerate that reply.',
      {
        field: 'forwardedProps.fork',
      },
    );
  }
  return { threadId, atMessageId, regenerate: regenerate === true };
}

/**
 * The model the client chose for the run rides in `forwardedProps.model` (AG-UI has no field for
 * it): one of the agent's models, which the runtime checks (docs/models.md, "Choosing a model").
 */
export function fromAgUiModel(forwardedProps: unknown): string | undefined {
  const model = (forwardedProps as { model?: unknown } | null | undefined)?.model;
  if (model === undefined || model === null) return undefined;
  if (typeof model !== 'string' || !model.trim() || model.length > 200) {
    throw new HttpError('invalid_request', 'forwardedProps.model must be a model id the agent offers (a non-empty string of at most 200 characters).', {
      field: 'forwardedProps.model',
    });
  }
  return model;
}

export function fromAgUiTools(tools: RunAgentInput['tools']): ClientTool[] {
  return (tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
