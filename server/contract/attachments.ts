// What a user may attach to a message (docs/models.md, "Attachments"), read by the composer to
// say no before uploading, and by the server, which checks the bytes themselves.
import type { ContentPart } from '@ag-ui/core';
import type { Attachment } from '../store/messages';

/** The types an attachment may have: the images every vision model reads, and PDFs. */
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

/** The end of every refusal of a file's type: what would pass. */
export const ALLOWED_TYPES_TEXT = 'only PNG, JPEG, GIF, WebP images and PDFs';

/** "68 B", "12 KB", "3.4 MB": a file's size as a person reads it, the same in a chip, an error and the scripted model's reply. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${Math.round(size / 1024)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** What the upload answers (POST /api/agents/{name}/attachments), and what a message carries of a file. */
export type { Attachment };

/**
 * A user message as AG-UI 1.0 content (docs/internals/wires.md, "Content parts"): without files, its text;
 * with them, the text then an `image` or `document` part per file whose source is the file's URL,
 * with its name and size in `metadata`. The chat sends this and the server's snapshots give it
 * back, so a bubble reads the same before and after a refresh.
 */
export function userMessageContent(text: string, attachments: readonly Attachment[] | undefined): string | ContentPart[] {
  if (!attachments?.length) return text;
  return [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...attachments.map((file): ContentPart => ({
      type: file.mediaType.startsWith('image/') ? 'image' : 'document',
      source: { type: 'url', value: file.url, mimeType: file.mediaType },
      metadata: { filename: file.filename, size: file.size, attachmentId: file.id },
    })),
  ];
}
