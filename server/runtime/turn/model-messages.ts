// The log's chat messages → AI SDK model messages for one model step. What a provider said about
// a part of its output (its metadata) goes back with the part as its `providerOptions`, so a
// thinking block keeps its signature and a reasoning item its id and encrypted content
// (docs/internals/architecture.md, "Reasoning and provider metadata").
import type { ModelMessage } from 'ai';
import type { SharedV4ProviderOptions as ProviderOptions } from '@ai-sdk/provider';
import type { StepFiles } from '../../attachments';
import { formatBytes } from '../../contract';
import type { Attachment, ChatMessage, ProviderMetadata } from '../../store/messages';

/**
 * Model APIs want each tool result right after the call that asked for it. The log keeps
 * arrival order (a user may write while a decision is pending), so results are moved up
 * to their calls here.
 */
function resultsAfterCalls(messages: ChatMessage[]): ChatMessage[] {
  const results = new Map<string, ChatMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message);
  const ordered: ChatMessage[] = [];
  const placed = new Set<ChatMessage>();
  for (const message of messages) {
    if (message.role === 'tool') {
      if (!placed.has(message)) ordered.push(message);
      continue;
    }
    ordered.push(message);
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        const result = results.get(call.id);
        if (result && !placed.has(result)) {
          ordered.push(result);
          placed.add(result);
        }
      }
    }
  }
  return ordered;
}

/**
 * `files`: the bytes of the attachments the step sends, loaded from storage beforehand within its
 * budget (server/attachments, loadAttachmentBytes), so this stays pure. Without them — a tool's
 * view of the history — an attachment is a line of text that names it.
 */
export function toModelMessages(messages: ChatMessage[], files?: StepFiles): ModelMessage[] {
  const result: ModelMessage[] = [];
  for (const message of resultsAfterCalls(messages)) {
    switch (message.role) {
      case 'user':
        result.push({ role: 'user', content: message.attachments?.length ? userContent(message.content, message.attachments, files) : message.content });
        break;
      case 'system':
      case 'developer':
        result.push({ role: 'system', content: message.content });
        break;
      case 'assistant': {
        // Reasoning goes back only with what it led to: a provider refuses a reasoning item with nothing after it.
        if (!message.content && !message.toolCalls?.length) break;
        const content: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
        for (const part of message.reasoning ?? []) content.push({ type: 'reasoning', text: part.text, ...providerOptions(part.providerMetadata) });
        if (message.content) content.push({ type: 'text', text: message.content, ...providerOptions(message.providerMetadata) });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input, ...providerOptions(call.providerMetadata) });
        }
        result.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.isError ? { type: 'error-text' as const, value: message.content } : { type: 'text' as const, value: message.content },
        };
        // Consecutive results of one step travel in one tool message.
        const last = result.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else result.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return result;
}

type UserContent = Exclude<Extract<ModelMessage, { role: 'user' }>['content'], string>;

/**
 * The text, then each attachment as a file part (docs/models.md, "Attachments"). Images go as
 * file parts of their image type too: the AI SDK hands them to every provider as images, and a
 * file part keeps its name, which an image part has no place for.
 */
function userContent(text: string, attachments: Attachment[], files: StepFiles | undefined): UserContent {
  const content: UserContent = text ? [{ type: 'text', text }] : [];
  for (const file of attachments) {
    const bytes = files?.bytes.get(file.id);
    if (bytes) content.push({ type: 'file', data: bytes, mediaType: file.mediaType, filename: file.filename });
    else content.push({ type: 'text', text: attachmentNote(file, files) });
  }
  return content;
}

/** What stands in for a file the step does not send: left out of its budget, gone from storage, or a tool's view. */
function attachmentNote(file: Attachment, files: StepFiles | undefined): string {
  if (!files) return `[Attached: ${file.filename} (${file.mediaType})]`;
  if (files.leftOut.has(file.id)) {
    const what = `${file.filename} (${file.mediaType}, ${formatBytes(file.size)})`;
    return `[Attachment ${what} was left out: a step carries at most ${formatBytes(files.budget)} of files, the most recent first.]`;
  }
  return `[Attachment ${file.filename} is no longer stored.]`;
}

/** A part's metadata as the options the provider reads back; nothing when it had none. */
function providerOptions(metadata: ProviderMetadata | undefined): { providerOptions?: ProviderOptions } {
  // The log holds what the SDK gave: JSON, read back from JSON.
  return metadata ? { providerOptions: metadata as ProviderOptions } : {};
}
