// Files people attach (docs/models.md, "Attachments"): where they are kept, how big, how many.
import { group } from './group';
import { amount, text, whole } from './variable';

const MB = 1024 * 1024;

export const attachments = group('Attachments (docs/models.md, "Attachments").', {
  BLOB_READ_WRITE_TOKEN: text({ description: 'Set: uploads are kept in Vercel Blob (Vercel sets it when a Blob store is connected). Unset: on disk.' }),
  STACKBONE_ATTACHMENTS_DIR: text({ description: 'Where uploads are kept on disk. Default: .data/attachments under the working directory.' }),
  STACKBONE_MAX_IMAGE_BYTES: whole({ description: 'The largest image (bytes): what vision models take per image, with room.' }, 'bytes', 5 * MB, 1),
  STACKBONE_MAX_PDF_BYTES: whole({ description: 'The largest PDF (bytes).' }, 'bytes', 10 * MB, 1),
  STACKBONE_MAX_ATTACHMENTS_PER_MESSAGE: whole({ description: 'The image and document parts one user message may carry.' }, '', 10, 1),
  STACKBONE_MAX_ATTACHMENT_BYTES_PER_STEP: whole(
    { description: 'The bytes of files one model step reads and sends, the most recent first (base64 makes them a third larger).' },
    'bytes',
    20 * MB,
    1,
  ),
  STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER: whole({ description: 'The bytes of files one browser identity may keep.' }, 'bytes', 50 * MB, 1),
  STACKBONE_MAX_UPLOADS_PER_HOUR: whole({ description: 'Uploads one browser identity may make an hour.' }, '', 20, 1),
  STACKBONE_MAX_ATTACHMENT_BYTES_PER_KEY: whole(
    { description: 'The bytes of files a key or the local owner may keep; unset: no limit (a backend holding a key speaks for many users).' },
    'bytes',
    undefined,
    1,
  ),
  STACKBONE_MAX_UPLOADS_PER_HOUR_PER_KEY: whole({ description: 'Uploads a key or the local owner may make an hour; unset: no limit.' }, '', undefined, 1),
  STACKBONE_ATTACHMENT_GRACE_SECONDS: amount(
    { description: 'How long an upload waits for a message to name it (seconds) before the sweep deletes it.' },
    'seconds',
    86_400,
    true,
  ),
});
