// Attachments on Vercel Blob, when BLOB_READ_WRITE_TOKEN is set (docs/models.md, "Attachments"):
// private blobs `attachments/<id>` (the bytes) and `attachments/<id>.json` (the record), read
// back with the token; no blob URL is ever handed out — the owner reads through our route. An
// upload streams to Blob as it comes; a blob exists only once its upload completed.
import { del, get, put } from '@vercel/blob';
import { ATTACHMENT_ID, type AttachmentStorage, type StoredAttachment } from './stored-attachment';

const pathOf = (id: string, suffix = '') => `attachments/${id}${suffix}`;

async function readBlob(pathname: string): Promise<Uint8Array | undefined> {
  const result = await get(pathname, { access: 'private', useCache: false });
  if (!result || result.statusCode !== 200) return undefined;
  return new Uint8Array(await new Response(result.stream).arrayBuffer());
}

const options = { access: 'private', addRandomSuffix: false, allowOverwrite: true } as const;

export const blobStorage: AttachmentStorage = {
  async put(record, body) {
    // A refusal in the stream (too large, a stalled client) aborts the request at once: the SDK
    // would otherwise try a broken upload again, with a stream already spent.
    const abort = new AbortController();
    let size = 0;
    let failure: unknown;
    const reader = body.getReader();
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) return controller.close();
          size += next.value.byteLength;
          controller.enqueue(next.value);
        } catch (error) {
          failure = error;
          abort.abort(error);
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    try {
      await put(pathOf(record.id), counted, { ...options, contentType: record.mediaType, abortSignal: abort.signal });
    } catch (error) {
      throw failure ?? error;
    }
    const stored: StoredAttachment = { ...record, size };
    await put(pathOf(record.id, '.json'), JSON.stringify(stored), { ...options, contentType: 'application/json' });
    return stored;
  },
  async record(id: string) {
    if (!ATTACHMENT_ID.test(id)) return undefined;
    const bytes = await readBlob(pathOf(id, '.json'));
    return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as StoredAttachment) : undefined;
  },
  async read(id: string) {
    return ATTACHMENT_ID.test(id) ? readBlob(pathOf(id)) : undefined;
  },
  async delete(id: string) {
    if (!ATTACHMENT_ID.test(id)) return;
    await del([pathOf(id, '.json'), pathOf(id)]);
  },
};
