// What a file is, read from its first bytes (its magic number), not from the name or the type
// its sender claimed: a renamed file is what its bytes say (docs/models.md, "Attachments").

import type { AttachmentType } from '../contract';

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The attachment type the bytes are, or undefined when they are none of ATTACHMENT_TYPES. */
export function sniffType(bytes: Uint8Array): AttachmentType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  return undefined;
}

export function isImageType(mediaType: string): boolean {
  return mediaType.startsWith('image/');
}
