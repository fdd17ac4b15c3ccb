// The files an AG-UI message's media parts claim, made attachments (docs/wires.md, "Content
// parts"): a URL must name one of the caller's own attachments — the server never fetches a URL
// — and bytes sent inline are checked and stored like an upload, once (the id is their hash).
import { findAttachment, saveAttachment } from '../../attachments';
import type { Attachment } from '../../events';
import { HttpError } from '../../http/errors';
import type { AttachmentClaim } from '../../wire/agui/content-parts';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

async function claimed(ownerId: string, agent: string, messageId: string, claim: AttachmentClaim): Promise<Attachment> {
  if (claim.kind === 'url') {
    const found = await findAttachment(ownerId, agent, claim.url);
    if (!found) {
      throw new HttpError(
        'not_found',
        `Message "${messageId}": ${claim.url.slice(0, 200)} is not an attachment of yours; upload the file (POST /api/agents/{name}/attachments) and send the url it answers.`,
        { what: 'attachment', messageId },
      );
    }
    return found;
  }
  const base64 = claim.base64.replace(/\s/g, '');
  if (!BASE64.test(base64)) throw new HttpError('invalid_request', `Message "${messageId}": a data source's value must be base64.`, { messageId });
  const saved = await saveAttachment({ ownerId, agent, bytes: Buffer.from(base64, 'base64'), filename: claim.filename, contentId: true });
  if (!saved.ok) throw new HttpError(saved.code, saved.message, { messageId });
  return saved.attachment;
}

/** Message id → its attachments, in the order its parts named them. */
export async function resolveAttachmentClaims(
  ownerId: string,
  agent: string,
  claims: ReadonlyMap<string, AttachmentClaim[]>,
): Promise<Map<string, Attachment[]>> {
  const resolved = new Map<string, Attachment[]>();
  for (const [messageId, files] of claims) {
    resolved.set(messageId, await Promise.all(files.map((claim) => claimed(ownerId, agent, messageId, claim))));
  }
  return resolved;
}
