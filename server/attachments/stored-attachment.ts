// What attachment storage keeps and promises (docs/models.md, "Attachments"): the record beside
// each file's bytes that says whose it is, and the four things every storage does.

/** What is kept about an attachment beside its bytes. */
export interface StoredAttachment {
  id: string;
  ownerId: string;
  mediaType: string;
  filename: string;
  size: number;
}

export interface AttachmentStorage {
  /**
   * Keeps the bytes `body` streams under `record.id`, then the record with their size, which it
   * answers. The bytes are written as they come, never held whole; when the stream fails, nothing
   * is kept and `put` fails with the stream's own error.
   */
  put(record: Omit<StoredAttachment, 'size'>, body: ReadableStream<Uint8Array>): Promise<StoredAttachment>;
  /** The record of `id`, or undefined when there is none. */
  record(id: string): Promise<StoredAttachment | undefined>;
  /** The bytes of `id`, or undefined when they are gone. */
  read(id: string): Promise<Uint8Array | undefined>;
  /** Removes the bytes and the record of `id` (the sweep, a refused upload); nothing when they are gone already. */
  delete(id: string): Promise<void>;
}

/** An id names one file: letters, digits, `_` and `-` (it is part of a path and a URL). */
export const ATTACHMENT_ID = /^[A-Za-z0-9_-]{16,80}$/;
