// What the scripted model reads of a prompt (scripted-reply.ts decides on it): the user's last
// text, the files that reached it, and the tool results it answers in plain words
// (scripted-results.ts).
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describeToolResult } from './scripted-results';
import { formatBytes } from '../contract';

/** The text of the last user message, its text parts joined. */
export function lastUserText(prompt: LanguageModelV4Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role !== 'user') continue;
    return message.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('')
      .trim();
  }
  return '';
}

type FilePart = Extract<Extract<LanguageModelV4Prompt[number], { role: 'user' }>['content'][number], { type: 'file' }>;

/** "I got photo.png (an image, 12 KB) and notes.pdf (a PDF, 3 KB)." and what the text said. */
export function describeFiles(files: FilePart[], text: string): string {
  const named = files.map((file) => {
    const kind = file.mediaType.startsWith('image/') ? 'an image' : file.mediaType === 'application/pdf' ? 'a PDF' : `a ${file.mediaType} file`;
    const size = fileSize(file.data);
    return `${file.filename ?? 'a file'} (${kind}${size === undefined ? '' : `, ${formatBytes(size)}`})`;
  });
  const quoted = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `I got ${list}.${quoted ? ` You said: "${quoted}".` : ''}`;
}

/** The bytes a file part carries; undefined for a URL or a provider's reference (never fetched). */
function fileSize(data: FilePart['data']): number | undefined {
  if (data.type !== 'data') return undefined;
  return typeof data.data === 'string' ? Buffer.from(data.data, 'base64').byteLength : data.data.byteLength;
}

type ToolMessageContent = Extract<LanguageModelV4Prompt[number], { role: 'tool' }>['content'];

export function describeToolMessage(content: ToolMessageContent): string {
  const lines = content.flatMap((part) => (part.type === 'tool-result' ? [describeToolResult(part)] : []));
  if (lines.length > 0) return lines.join('\n');
  const denied = content.some((part) => part.type === 'tool-approval-response' && !part.approved);
  return denied ? 'Understood: the tool call was denied.' : 'Understood: the tool call was approved.';
}
