// The checks a file passes as it streams in (docs/models.md, "Attachments"): its type from its
// first bytes, before anything is stored, and its size while it streams — at most what its type
// may be, and at most what its owner has left — so a refused file is never read to its end.
import { ALLOWED_TYPES_TEXT, formatBytes, type AttachmentType } from '../contract';
import { sizeLimitOf } from './attachment-limits';
import { AttachmentRefusal } from './attachment-refusal';
import { capBytes, readAhead } from './byte-streams';
import { sniffType } from './sniff-type';

/** Enough of a file to know its type (sniff-type.ts reads at most 12 bytes). */
const TYPE_BYTES = 16;

/** What an owner has left of its quota: past it, the stream ends with `refusal()`. */
export interface Room {
  bytes: number;
  refusal: () => AttachmentRefusal;
}

/**
 * `body`, sent as `name`, as the file its bytes say it is: 415 attachment_type when it is empty or
 * none of the types allowed; then a stream of it that ends with 413 attachment_too_large past the
 * size its type may be, or with `room`'s refusal past what the owner has left.
 */
export async function checkedBody(
  body: ReadableStream<Uint8Array>,
  name: string,
  room?: Room,
): Promise<{ mediaType: AttachmentType; body: ReadableStream<Uint8Array> }> {
  const read = await readAhead(body, TYPE_BYTES);
  const mediaType = sniffType(read.head);
  if (!mediaType) {
    void read.body.cancel().catch(() => undefined);
    const problem = read.head.byteLength === 0 ? `${name} is empty: ${ALLOWED_TYPES_TEXT}.` : `${name}: ${ALLOWED_TYPES_TEXT}.`;
    throw new AttachmentRefusal('attachment_type', problem);
  }
  const { max, kind } = sizeLimitOf(mediaType);
  const tooLarge = () => new AttachmentRefusal('attachment_too_large', `${name} is over the ${formatBytes(max)} ${kind} may be.`);
  const typed = capBytes(read.body, max, tooLarge);
  // The smaller limit ends the stream, with its own refusal.
  return { mediaType, body: room && room.bytes < max ? capBytes(typed, room.bytes, room.refusal) : typed };
}
