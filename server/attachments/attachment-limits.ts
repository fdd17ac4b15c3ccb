// The rules an attachment passes before it is stored (docs/models.md, "Attachments"): one of the
// allowed types, by its bytes, and at most the size its kind may be. Each refusal names the file
// and says what would pass, so the sender knows what to change.
import { ALLOWED_TYPES_TEXT, formatBytes, type AttachmentType } from '../contract';
import { isImageType, sniffType } from './sniff-type';

/** A positive byte count from the environment, else `fallback` (this floor is below the runtime and its envNumber). */
function envBytes(name: string, fallback: number): number {
  const value = Number(process.env[name]?.trim() || NaN);
  return value > 0 ? Math.floor(value) : fallback;
}

/** STACKBONE_MAX_IMAGE_BYTES (5 MB): what vision models take per image, with room. */
export function maxImageBytes(): number {
  return envBytes('STACKBONE_MAX_IMAGE_BYTES', 5 * 1024 * 1024);
}

/** STACKBONE_MAX_PDF_BYTES (10 MB). */
export function maxPdfBytes(): number {
  return envBytes('STACKBONE_MAX_PDF_BYTES', 10 * 1024 * 1024);
}

export type AttachmentCheck = { ok: true; mediaType: AttachmentType } | { ok: false; code: 'attachment_type' | 'attachment_too_large'; message: string };

/** Whether `bytes`, sent as `filename`, may be stored; its type is what the bytes are. */
export function checkAttachment(bytes: Uint8Array, filename: string): AttachmentCheck {
  const mediaType = sniffType(bytes);
  if (!mediaType) return { ok: false, code: 'attachment_type', message: `${filename}: ${ALLOWED_TYPES_TEXT}.` };
  const max = isImageType(mediaType) ? maxImageBytes() : maxPdfBytes();
  if (bytes.byteLength > max) {
    const kind = isImageType(mediaType) ? 'an image' : 'a PDF';
    return {
      ok: false,
      code: 'attachment_too_large',
      message: `${filename}: ${formatBytes(bytes.byteLength)} is over the ${formatBytes(max)} ${kind} may be.`,
    };
  }
  return { ok: true, mediaType };
}
