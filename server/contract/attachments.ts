// What a user may attach to a message (docs/models.md, "Attachments"), read by the composer to
// say no before uploading, and by the server, which checks the bytes themselves.

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
export type { Attachment } from '../events';
