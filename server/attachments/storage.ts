// Where attachments' bytes live: beside the log, never in it (docs/models.md, "Attachments").
// Local files by default; Vercel Blob when BLOB_READ_WRITE_TOKEN is set (a serverless function's
// disk is neither shared nor kept). Each attachment is its bytes plus a small record that says
// whose it is, so only its owner may read it.
import { blobStorage } from './blob-storage';
import { localStorage } from './local-storage';
import type { AttachmentStorage } from './stored-attachment';
import { setting } from '../config';

export function getAttachmentStorage(): AttachmentStorage {
  return setting('BLOB_READ_WRITE_TOKEN') ? blobStorage : localStorage;
}
