// Attachments as local files (the default): `<dir>/<id>` holds the bytes and `<dir>/<id>.json`
// the record, under STACKBONE_ATTACHMENTS_DIR or `.data/attachments/` (docs/models.md, "Attachments").
// An upload streams into `<dir>/.uploading/` and is renamed into place once whole, so a file
// under its id is always complete, and a refused or broken upload leaves only a temp file, removed.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { ATTACHMENT_ID, type AttachmentStorage, type StoredAttachment } from './stored-attachment';
import { setting } from '../config';

function directory(): string {
  return setting('STACKBONE_ATTACHMENTS_DIR') ?? path.join(process.cwd(), '.data', 'attachments');
}

const uploading = () => path.join(directory(), '.uploading');

/** The file of `id`; undefined for an id that is not one (it is never a path of its own). */
function fileOf(id: string, suffix = ''): string | undefined {
  return ATTACHMENT_ID.test(id) ? path.join(directory(), `${id}${suffix}`) : undefined;
}

/** A temp file of `id`'s, unique: the same inline bytes may be stored twice at once. */
const tempOf = (id: string) => path.join(uploading(), `${id}.${randomBytes(6).toString('hex')}.part`);

async function readIfThere(file: string | undefined): Promise<Buffer | undefined> {
  if (!file) return undefined;
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes `data` to `file` whole or not at all (a crash mid-write leaves no half record). */
async function writeWhole(id: string, file: string, data: string): Promise<void> {
  const temp = tempOf(id);
  await writeFile(temp, data, { flag: 'wx' });
  await rename(temp, file);
}

export const localStorage: AttachmentStorage = {
  async put(record, body) {
    const file = fileOf(record.id);
    if (!file) throw new Error(`Not an attachment id: ${record.id}`);
    await mkdir(uploading(), { recursive: true });
    const temp = tempOf(record.id);
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.byteLength;
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(body as NodeWebStream<Uint8Array>), counted, createWriteStream(temp, { flags: 'wx' }));
      // The bytes first: a record is only ever written for bytes that are there.
      await rename(temp, file);
      const stored: StoredAttachment = { ...record, size };
      await writeWhole(record.id, fileOf(record.id, '.json')!, JSON.stringify(stored));
      return stored;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  },
  async record(id: string) {
    const text = await readIfThere(fileOf(id, '.json'));
    return text ? (JSON.parse(text.toString('utf8')) as StoredAttachment) : undefined;
  },
  async read(id: string) {
    const bytes = await readIfThere(fileOf(id));
    return bytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
  },
  async delete(id: string) {
    if (!ATTACHMENT_ID.test(id)) return;
    // The record first: an attachment without one is found by nobody while its bytes go.
    await rm(fileOf(id, '.json')!, { force: true });
    await rm(fileOf(id)!, { force: true });
    // What a crash mid-upload left of it.
    const left = await readdir(uploading()).catch(() => [] as string[]);
    await Promise.all(left.filter((name) => name.startsWith(`${id}.`)).map((name) => rm(path.join(uploading(), name), { force: true })));
  },
};
