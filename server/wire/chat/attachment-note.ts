// How the OpenAI and Anthropic wires show a user message's attachments when they hand a
// session's history back (docs/internals/wires.md, "Content parts"): a line of text per file after the
// message's text, naming it and the URL its owner reads it from. Their clients would need the
// bytes inline to send them again, and the session has them already.
import type { ChatMessage } from '../../store/messages';

type UserMessage = Extract<ChatMessage, { role: 'user' }>;

export function userTextWithAttachments(message: UserMessage): string {
  const notes = (message.attachments ?? []).map((file) => `[Attached: ${file.filename} (${file.mediaType}, ${file.size} bytes): ${file.url}]`);
  return [message.content, ...notes].filter(Boolean).join('\n');
}

/** The error a chat wire answers for a file in a user message: they take text; files go through AG-UI. */
export const FILES_THROUGH_AG_UI =
  'files are not accepted on this wire; send attachments over AG-UI (POST /api/agents/{name}/attachments, then an image or document part with its url).';
