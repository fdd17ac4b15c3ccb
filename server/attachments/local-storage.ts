// Attachments as local files (the default): `<dir>/<id>` holds the bytes and `<dir>/<id>.json`
// the record, under STACKBONE_ATTACHMENTS_DIR or `.data/attachments/` (docs/models.md, "Attachments").
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ATTACHMENT_ID, type AttachmentStorage, type StoredAttachment } from './stored-attachment';

function directory(): string {
  return process.env.STACKBONE_ATTACHMENTS_DIR || path.join(process.cwd(), '.data', 'attachments');
}

/** The file of `id`; undefined for an id that is not one (it is never a path of its own). */
function fileOf(id: string, suffix = ''): string | undefined {
  return ATTACHMENT_ID.test(id) ? path.join(directory(), `${id}${suffix}`) : undefined;
}

async function readIfThere(file: string | undefined): Promise<Buffer | undefined> {
  if (!file) return undefined;
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export const localStorage: AttachmentStorage = {
  async put(record: StoredAttachment, bytes: Uint8Array) {
    await mkdir(directory(), { recursive: true });
    // The bytes first: a record is only ever written for bytes that are there.
    await writeFile(fileOf(record.id)!, bytes);
    await writeFile(fileOf(record.id, '.json')!, JSON.stringify(record));
  },
  async record(id: string) {
    const text = await readIfThere(fileOf(id, '.json'));
    return text ? (JSON.parse(text.toString('utf8')) as StoredAttachment) : undefined;
  },
  async read(id: string) {
    const bytes = await readIfThere(fileOf(id));
    return bytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
  },
};
