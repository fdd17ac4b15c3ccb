// The limits a file meets to be stored and sent (docs/models.md, "Attachments"; docs/security.md,
// "What a request may carry"): the size of one image or PDF, how many files one message names,
// and how many bytes of files one model step is sent.
import { isImageType } from './sniff-type';
import { setting } from '../config';

/** STACKBONE_MAX_IMAGE_BYTES (5 MB): what vision models take per image, with room. */
export function maxImageBytes(): number {
  return setting('STACKBONE_MAX_IMAGE_BYTES');
}

/** STACKBONE_MAX_PDF_BYTES (10 MB). */
export function maxPdfBytes(): number {
  return setting('STACKBONE_MAX_PDF_BYTES');
}

/** The most a file of `mediaType` may be, and what it is called in a refusal. */
export function sizeLimitOf(mediaType: string): { max: number; kind: string } {
  return isImageType(mediaType) ? { max: maxImageBytes(), kind: 'an image' } : { max: maxPdfBytes(), kind: 'a PDF' };
}

/** STACKBONE_MAX_ATTACHMENTS_PER_MESSAGE (10): the image and document parts one user message may carry. */
export function maxAttachmentsPerMessage(): number {
  return setting('STACKBONE_MAX_ATTACHMENTS_PER_MESSAGE');
}

/**
 * STACKBONE_MAX_ATTACHMENT_BYTES_PER_STEP (20 MB): the bytes of files one model step reads and
 * sends, the most recent first. 20 MB is about 27 MB once base64-encoded, under the request size
 * the providers take (Anthropic's is 32 MB).
 */
export function attachmentBytesPerStep(): number {
  return setting('STACKBONE_MAX_ATTACHMENT_BYTES_PER_STEP');
}
