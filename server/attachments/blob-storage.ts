// Attachments on Vercel Blob, when BLOB_READ_WRITE_TOKEN is set (docs/models.md, "Attachments"):
// private blobs `attachments/<id>` (the bytes) and `attachments/<id>.json` (the record), read
// back with the token; no blob URL is ever handed out — the owner reads through our route.
import { get, put } from '@vercel/blob';
import { ATTACHMENT_ID, type AttachmentStorage, type StoredAttachment } from './stored-attachment';

const pathOf = (id: string, suffix = '') => `attachments/${id}${suffix}`;

async function readBlob(pathname: string): Promise<Uint8Array | undefined> {
  const result = await get(pathname, { access: 'private', useCache: false });
  if (!result || result.statusCode !== 200) return undefined;
  return new Uint8Array(await new Response(result.stream).arrayBuffer());
}

export const blobStorage: AttachmentStorage = {
  async put(record: StoredAttachment, bytes: Uint8Array) {
    const options = { access: 'private', addRandomSuffix: false, allowOverwrite: true } as const;
    await put(pathOf(record.id), Buffer.from(bytes), { ...options, contentType: record.mediaType });
    await put(pathOf(record.id, '.json'), JSON.stringify(record), { ...options, contentType: 'application/json' });
  },
  async record(id: string) {
    if (!ATTACHMENT_ID.test(id)) return undefined;
    const bytes = await readBlob(pathOf(id, '.json'));
    return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as StoredAttachment) : undefined;
  },
  async read(id: string) {
    return ATTACHMENT_ID.test(id) ? readBlob(pathOf(id)) : undefined;
  },
};
