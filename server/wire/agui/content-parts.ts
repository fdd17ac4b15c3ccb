// A user message's attachments as AG-UI 1.0 content parts coming in (docs/internals/wires.md, "Content
// parts"; going out they are server/contract's userMessageContent): the files a client's parts claim —
// a URL (which must be one of this owner's attachments) or bytes inline (`source.type: 'data'`,
// base64) — for the route to look up or store. Audio, video and `file` sources are refused.
import type { Message as AgUiMessage } from '@ag-ui/core';
import { ALLOWED_TYPES_TEXT } from '../../contract';
import { HttpError } from '../../http/errors';

/** A file a client's part names: one of our URLs, or bytes it sent inline. */
export type AttachmentClaim = { kind: 'url'; url: string } | { kind: 'data'; base64: string; filename?: string };

/** Message id → the files its parts claim, in order; only user messages with media parts appear. */
export function agUiAttachmentClaims(messages: AgUiMessage[]): Map<string, AttachmentClaim[]> {
  const claims = new Map<string, AttachmentClaim[]>();
  messages.forEach((message, index) => {
    if (message.role !== 'user' || typeof message.content === 'string') return;
    const files = message.content.flatMap((part, partIndex): AttachmentClaim[] => {
      if (part.type === 'text') return [];
      const field = `messages.${index}.content.${partIndex}`;
      if (part.type !== 'image' && part.type !== 'document') {
        throw new HttpError('attachment_type', `${field}: ${part.type} parts are not accepted; ${ALLOWED_TYPES_TEXT}.`, { field });
      }
      const filename = typeof part.metadata?.filename === 'string' ? part.metadata.filename : undefined;
      if (part.source.type === 'url') return [{ kind: 'url', url: part.source.value }];
      if (part.source.type === 'data') return [{ kind: 'data', base64: part.source.value, ...(filename ? { filename } : {}) }];
      throw new HttpError(
        'invalid_request',
        `${field}: a file source is not accepted; upload the file (POST /api/agents/{name}/attachments) and send its URL.`,
        {
          field,
        },
      );
    });
    if (files.length > 0) claims.set(message.id, files);
  });
  return claims;
}
