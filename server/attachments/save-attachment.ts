// Storing a file a user sends, and finding it again by the URL it was given: the one way in and
// the one way back for every wire (docs/models.md, "Attachments"). An upload streams from the
// request into storage once its type is known; bytes sent inline take the same way. Either is
// counted against its owner's quota first (attachment-ledger.ts), and a refusal leaves nothing.
import { createHash, randomBytes } from 'node:crypto';
import type { Attachment } from '../store/messages';
import { discardAttachmentRow, reserveAttachment, settleAttachment, storageFull } from './attachment-ledger';
import { quotaOf } from './attachment-quota';
import { streamOf } from './byte-streams';
import { checkedBody } from './checked-body';
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

interface Incoming {
  ownerId: string;
  agent: string;
  id: string;
  body: ReadableStream<Uint8Array>;
  filename?: string;
  /** A message names it already (bytes sent inline): never swept. */
  claimed?: boolean;
}

/**
 * Counts the file against its owner's quota, checks its type by its first bytes, streams it into
 * storage within its size limit and what the owner has left, and records its size. Throws an
 * AttachmentRefusal (or the body's own error: a stalled upload) with nothing kept.
 */
async function store(incoming: Incoming): Promise<Attachment> {
  const { ownerId, id } = incoming;
  const quota = quotaOf(ownerId);
  let reservation;
  try {
    reservation = await reserveAttachment(ownerId, id, quota, { claimed: incoming.claimed });
  } catch (error) {
    // Refused before a byte was read: the client's body is not read either.
    void incoming.body.cancel().catch(() => undefined);
    throw error;
  }
  const storage = getAttachmentStorage();
  try {
    const room = reservation.room === undefined ? undefined : { bytes: reservation.room, refusal: () => storageFull(quota) };
    const checked = await checkedBody(incoming.body, cleanFilename(incoming.filename, 'The file'), room);
    const filename = cleanFilename(incoming.filename, fallbackName(checked.mediaType));
    const record = await storage.put({ id, ownerId, mediaType: checked.mediaType, filename }, checked.body);
    if (reservation.reserved) await settleAttachment(id, ownerId, record.size, quota);
    return toAttachment(record, incoming.agent);
  } catch (error) {
    // Only the call that made the row takes it out: another one storing the same inline bytes keeps its own.
    if (reservation.reserved) {
      await storage.delete(id).catch((cleanup: unknown) => console.error(`[stackbone] removing attachment ${id} failed`, cleanup));
      await discardAttachmentRow(id);
    }
    throw error;
  }
}

/** Stores an upload's body for `ownerId` under a random id (server/routes/agents/attachments.ts). */
export function saveUpload(options: { ownerId: string; agent: string; body: ReadableStream<Uint8Array>; filename?: string }): Promise<Attachment> {
  return store({ ...options, id: `att_${randomBytes(24).toString('base64url')}` });
}

/**
 * Stores bytes a message carries inline. The id is a hash of the owner and the bytes, so the same
 * file sent again (a client re-sending its history with the bytes inline) is the same attachment,
 * stored and counted once.
 */
export async function saveInlineAttachment(options: { ownerId: string; agent: string; bytes: Uint8Array; filename?: string }): Promise<Attachment> {
  const id = `att_${createHash('sha256').update(options.ownerId).update('\0').update(options.bytes).digest('base64url').slice(0, 32)}`;
  const stored = await getAttachmentStorage().record(id);
  if (stored?.ownerId === options.ownerId) return toAttachment(stored, options.agent);
  return store({ ownerId: options.ownerId, agent: options.agent, id, body: streamOf(options.bytes), filename: options.filename, claimed: true });
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
