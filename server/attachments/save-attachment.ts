// Storing a file a user sends, and finding it again by the URL it was given: the one way in and
// the one way back for every wire (docs/models.md, "Attachments").
import { createHash, randomBytes } from 'node:crypto';
import type { Attachment } from '../events';
import { checkAttachment, type AttachmentCheck } from './attachment-limits';
import { getAttachmentStorage } from './storage';
import type { StoredAttachment } from './stored-attachment';

/** The route that serves an attachment to its owner. */
function attachmentUrl(agent: string, id: string): string {
  return `/api/agents/${encodeURIComponent(agent)}/attachments/${id}`;
}

const URL_PATH = /^\/api\/agents\/[^/]+\/attachments\/([A-Za-z0-9_-]+)$/;

/** The attachment id a URL of ours names (absolute or a path), or undefined for any other URL. */
export function attachmentIdOf(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
  return URL_PATH.exec(pathname)?.[1];
}

/** A name fit for a header and a chip: no path, no control characters, at most 200 characters. */
function cleanFilename(name: string | undefined, fallback: string): string {
  const base = (name ?? '')
    .split(/[\\/]/)
    .at(-1)!
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim();
  return (base || fallback).slice(0, 200);
}

function fallbackName(mediaType: string): string {
  return `attachment.${mediaType === 'application/pdf' ? 'pdf' : mediaType.slice('image/'.length)}`;
}

type SaveResult = { ok: true; attachment: Attachment } | Extract<AttachmentCheck, { ok: false }>;

/**
 * Checks and stores `bytes` for `ownerId`. `contentId`: the id is a hash of the owner and the
 * bytes, so the same file sent again (a client re-sending its history with the bytes inline) is
 * the same attachment, stored once; otherwise a random one.
 */
export async function saveAttachment(options: {
  ownerId: string;
  agent: string;
  bytes: Uint8Array;
  filename?: string;
  contentId?: boolean;
}): Promise<SaveResult> {
  const check = checkAttachment(options.bytes, cleanFilename(options.filename, 'The file'));
  if (!check.ok) return check;
  const id = options.contentId
    ? `att_${createHash('sha256').update(options.ownerId).update('\0').update(options.bytes).digest('base64url').slice(0, 32)}`
    : `att_${randomBytes(24).toString('base64url')}`;
  const record: StoredAttachment = {
    id,
    ownerId: options.ownerId,
    mediaType: check.mediaType,
    filename: cleanFilename(options.filename, fallbackName(check.mediaType)),
    size: options.bytes.byteLength,
  };
  await getAttachmentStorage().put(record, options.bytes);
  return { ok: true, attachment: toAttachment(record, options.agent) };
}

/** The owner's attachment a URL of ours names, or undefined: another owner's is not found either. */
export async function findAttachment(ownerId: string, agent: string, url: string): Promise<Attachment | undefined> {
  const id = attachmentIdOf(url);
  const record = id ? await getAttachmentStorage().record(id) : undefined;
  return record && record.ownerId === ownerId ? toAttachment(record, agent) : undefined;
}

function toAttachment(record: StoredAttachment, agent: string): Attachment {
  return { id: record.id, url: attachmentUrl(agent, record.id), mediaType: record.mediaType, filename: record.filename, size: record.size };
}
