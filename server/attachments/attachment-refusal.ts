// Why a file was not stored or not named (docs/models.md, "Attachments"): a code of the server's
// vocabulary (docs/errors.md) with a message for the sender. Thrown, not returned: a refusal found
// while a body streams into storage has to end that stream, and the route answers it as HTTP.

export type AttachmentRefusalCode = 'attachment_type' | 'attachment_too_large' | 'attachment_storage_full' | 'too_many_uploads';

export class AttachmentRefusal extends Error {
  constructor(
    readonly code: AttachmentRefusalCode,
    message: string,
    /** When trying again may succeed (too_many_uploads): the Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AttachmentRefusal';
  }
}
