// What attachment storage keeps and promises (docs/models.md, "Attachments"): the record beside
// each file's bytes that says whose it is, and the three things every storage does.

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
