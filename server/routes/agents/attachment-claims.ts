// The files an AG-UI message's media parts claim, made attachments (docs/internals/wires.md, "Content
// parts"): a message names at most STACKBONE_MAX_ATTACHMENTS_PER_MESSAGE files; a URL must name
// one of the caller's own attachments — the server never fetches a URL — and naming it keeps it
// from the sweep; bytes sent inline are checked and stored like an upload, once (the id is their hash).
import { maxAttachmentsPerMessage, nameAttachments, saveInlineAttachment } from '../../attachments';
import type { Attachment } from '../../store/messages';
import { HttpError } from '../../http/errors';
import type { AttachmentClaim } from '../../wire/agui/content-parts';
import { answerOf } from './attachment-answer';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** 400 too_many_attachments for a message naming more files than one may, before any is looked at. */
function checkCounts(claims: ReadonlyMap<string, AttachmentClaim[]>): void {
  const max = maxAttachmentsPerMessage();
  for (const [messageId, files] of claims) {
    if (files.length > max) {
      throw new HttpError(
        'too_many_attachments',
        `Message "${messageId}" names ${files.length} files; a message may carry at most ${max} (STACKBONE_MAX_ATTACHMENTS_PER_MESSAGE).`,
        { messageId },
      );
    }
  }
}

async function inline(ownerId: string, agent: string, messageId: string, claim: Extract<AttachmentClaim, { kind: 'data' }>): Promise<Attachment> {
  const base64 = claim.base64.replace(/\s/g, '');
  if (!BASE64.test(base64)) throw new HttpError('invalid_request', `Message "${messageId}": a data source's value must be base64.`, { messageId });
  try {
    return await saveInlineAttachment({ ownerId, agent, bytes: Buffer.from(base64, 'base64'), filename: claim.filename });
  } catch (error) {
    throw answerOf(error, { messageId });
  }
}

function notYours(messageId: string, url: string): HttpError {
  return new HttpError(
    'not_found',
    `Message "${messageId}": ${url.slice(0, 200)} is not an attachment of yours; upload the file (POST /api/agents/{name}/attachments) and send the url it answers.`,
    { what: 'attachment', messageId },
  );
}

/** Message id → its attachments, in the order its parts named them. */
export async function resolveAttachmentClaims(
  ownerId: string,
  agent: string,
  claims: ReadonlyMap<string, AttachmentClaim[]>,
): Promise<Map<string, Attachment[]>> {
  checkCounts(claims);
  const urls = [...claims.values()].flat().flatMap((claim) => (claim.kind === 'url' ? [claim.url] : []));
  const named = await nameAttachments(ownerId, agent, urls);
  const resolved = new Map<string, Attachment[]>();
  for (const [messageId, files] of claims) {
    const attachments: Attachment[] = [];
    for (const claim of files) {
      if (claim.kind === 'data') {
        attachments.push(await inline(ownerId, agent, messageId, claim));
        continue;
      }
      const found = named.get(claim.url);
      if (!found) throw notYours(messageId, claim.url);
      attachments.push(found);
    }
    resolved.set(messageId, attachments);
  }
  return resolved;
}
