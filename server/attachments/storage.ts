// Where attachments' bytes live: beside the log, never in it (docs/models.md, "Attachments").
// Local files by default; Vercel Blob when BLOB_READ_WRITE_TOKEN is set (a serverless function's
// disk is neither shared nor kept). Each attachment is its bytes plus a small record that says
// whose it is, so only its owner may read it.
import { blobStorage } from './blob-storage';
import { localStorage } from './local-storage';

/** What is kept about an attachment beside its bytes. */
export interface StoredAttachment {
  id: string;
  ownerId: string;
  mediaType: string;
  filename: string;
  size: number;
}

export interface AttachmentStorage {
  /** Keeps the bytes and their record under `record.id`. */
  put(record: StoredAttachment, bytes: Uint8Array): Promise<void>;
  /** The record of `id`, or undefined when there is none. */
  record(id: string): Promise<StoredAttachment | undefined>;
  /** The bytes of `id`, or undefined when they are gone. */
  read(id: string): Promise<Uint8Array | undefined>;
}

/** An id names one file: letters, digits, `_` and `-` (it is part of a path and a URL). */
export const ATTACHMENT_ID = /^[A-Za-z0-9_-]{16,80}$/;

export function getAttachmentStorage(): AttachmentStorage {
  return process.env.BLOB_READ_WRITE_TOKEN ? blobStorage : localStorage;
}
