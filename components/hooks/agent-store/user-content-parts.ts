// A message with files, as AG-UI 1.0 content parts (docs/wires.md, "Content parts"): the text,
// then an image or document part per file whose source is the URL the upload answered, with its
// name and size in `metadata` — the shape the server's snapshots give back, so the bubble reads
// the same before and after a refresh.
import type { ContentPart } from '@ag-ui/client';
import type { Attachment } from '@/server/contract';

export function userContentParts(text: string, attachments: readonly Attachment[]): ContentPart[] {
  return [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...attachments.map((file): ContentPart => ({
      type: file.mediaType.startsWith('image/') ? 'image' : 'document',
      source: { type: 'url', value: file.url, mimeType: file.mediaType },
      metadata: { filename: file.filename, size: file.size, attachmentId: file.id },
    })),
  ];
}
