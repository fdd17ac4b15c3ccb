// Attachments below the runtime: what the bytes are (not the name), the size limits checked as the
// bytes stream in, storing a file for its owner only, the owner's quota, and the URL that names it.
// On a real SQLite database (the Attachment table) and real local storage.
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AttachmentRefusal, findAttachment, getAttachmentStorage, nameAttachments, saveInlineAttachment, saveUpload, sniffType } from '.';
import { closeAppDatabase, withAppDatabase } from '../store/app-database';
import { freshSqliteUrl } from '../../tests/support/database';
import { checkedBody } from './checked-body';
import { streamOf } from './byte-streams';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

/** `data` as a body arriving in chunks of `size` bytes, the way a request's does. */
function chunked(data: Uint8Array, size = 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= data.byteLength) return controller.close();
      controller.enqueue(data.slice(at, at + size));
      at += size;
    },
  });
}

const drain = async (body: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(body).arrayBuffer());

describe('attachments: the type is what the bytes are', () => {
  it('knows PNG, JPEG, GIF, WebP and PDF by their first bytes', () => {
    expect(sniffType(PNG)).toBe('image/png');
    expect(sniffType(bytes('\xff\xd8\xff\xe0\x00\x10JFIF'))).toBe('image/jpeg');
    expect(sniffType(bytes('GIF89a\x01\x00'))).toBe('image/gif');
    expect(sniffType(bytes('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
    expect(sniffType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it('refuses anything else by name, saying what passes, whatever the file is called — even when its magic comes split over chunks', async () => {
    // A HEIC photo (ftyp box) and a text file renamed to .png.
    await expect(checkedBody(streamOf(bytes('\x00\x00\x00\x18ftypheic')), 'photo.heic')).rejects.toMatchObject({
      code: 'attachment_type',
      message: 'photo.heic: only PNG, JPEG, GIF, WebP images and PDFs.',
    });
    await expect(checkedBody(streamOf(bytes('just some text')), 'photo.png')).rejects.toMatchObject({ code: 'attachment_type' });
    await expect(checkedBody(streamOf(new Uint8Array()), 'empty.png')).rejects.toMatchObject({
      message: 'empty.png is empty: only PNG, JPEG, GIF, WebP images and PDFs.',
    });
    const split = await checkedBody(chunked(PNG, 3), 'photo.png');
    expect(split.mediaType).toBe('image/png');
    expect(Buffer.from(await drain(split.body))).toEqual(PNG);
  });
});

describe('attachments: size limits, while the bytes stream', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('holds images and PDFs to their own limits, from the environment, and stops reading at the limit', async () => {
    vi.stubEnv('STACKBONE_MAX_IMAGE_BYTES', '64');
    vi.stubEnv('STACKBONE_MAX_PDF_BYTES', '2048');
    const image = await checkedBody(chunked(PNG, 16), 'photo.png');
    await expect(drain(image.body)).rejects.toMatchObject({ code: 'attachment_too_large', message: 'photo.png is over the 64 B an image may be.' });
    const pdf = await checkedBody(streamOf(bytes(`%PDF-1.7\n${'x'.repeat(1000)}`)), 'notes.pdf');
    expect((await drain(pdf.body)).byteLength).toBe(1009);
    // A body far over the limit is read no further than the chunk that passed it.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(pulled === 1 ? bytes('%PDF-1.7\n') : new Uint8Array(1000));
      },
    });
    const big = await checkedBody(endless, 'big.pdf');
    await expect(drain(big.body)).rejects.toMatchObject({ code: 'attachment_too_large' });
    // Two chunks for the type, two to pass 2 KB, and the one the pipe reads ahead.
    expect(pulled).toBeLessThanOrEqual(6);
  });

  it('defaults to 5 MB for an image and 10 MB for a PDF', async () => {
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(PNG);
    await expect(drain((await checkedBody(chunked(huge, 65_536), 'huge.png')).body)).rejects.toMatchObject({
      message: 'huge.png is over the 5 MB an image may be.',
    });
    const pdf = new Uint8Array(10 * 1024 * 1024);
    pdf.set(bytes('%PDF-1.7\n'));
    expect((await drain((await checkedBody(chunked(pdf, 65_536), 'ten.pdf')).body)).byteLength).toBe(pdf.byteLength);
  });
});

describe('attachments: stored for their owner, within its quota', () => {
  let directory: string;
  beforeAll(async () => {
    vi.stubEnv('DATABASE_URL', await freshSqliteUrl());
  }, 60_000);
  afterAll(async () => {
    await closeAppDatabase();
    vi.unstubAllEnvs();
  });
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'stackbone-attachments-'));
    vi.stubEnv('STACKBONE_ATTACHMENTS_DIR', directory);
    vi.stubEnv('BLOB_READ_WRITE_TOKEN', '');
  });
  afterEach(() => {
    for (const name of ['STACKBONE_MAX_UPLOADS_PER_HOUR', 'STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER', 'STACKBONE_MAX_IMAGE_BYTES']) vi.stubEnv(name, '');
  });

  const rowsOf = (ownerId: string) => withAppDatabase((db) => db.attachment.findMany({ where: { ownerId }, orderBy: { createdAt: 'asc' } }));
  /** What the storage directory holds, temp files included. */
  const files = async () =>
    [...(await readdir(directory)), ...(await readdir(path.join(directory, '.uploading')).catch(() => []))].filter((name) => name !== '.uploading');

  it('streams the bytes to a file with a sniffed type and a clean name, counts them, and finds them only for their owner', async () => {
    const attachment = await saveUpload({ ownerId: 'browser:alice', agent: 'helpdesk', body: chunked(PNG, 7), filename: '../../etc/photo.png' });
    expect(attachment).toMatchObject({
      mediaType: 'image/png',
      filename: 'photo.png',
      size: PNG.byteLength,
      url: `/api/agents/helpdesk/attachments/${attachment.id}`,
    });
    expect(await findAttachment('browser:alice', 'helpdesk', `http://localhost:3000${attachment.url}`)).toEqual(attachment);
    expect(await findAttachment('browser:bob', 'helpdesk', attachment.url)).toBeUndefined();
    expect(Buffer.from((await getAttachmentStorage().read(attachment.id))!)).toEqual(PNG);
    expect(await rowsOf('browser:alice')).toMatchObject([{ id: attachment.id, size: PNG.byteLength, claimedAt: null, sweptAt: null }]);
    // A URL that is not ours is no attachment: it is never fetched.
    expect(await findAttachment('browser:alice', 'helpdesk', 'https://example.com/photo.png')).toBeUndefined();
    expect(
      (await nameAttachments('browser:alice', 'helpdesk', ['/api/agents/helpdesk/attachments/../../secrets'])).get(
        '/api/agents/helpdesk/attachments/../../secrets',
      ),
    ).toBeUndefined();
  });

  it('keeps nothing of a file refused mid-stream: no bytes, no temp file, no record, no row', async () => {
    vi.stubEnv('STACKBONE_MAX_IMAGE_BYTES', '4096');
    const huge = new Uint8Array(64 * 1024);
    huge.set(PNG);
    await expect(saveUpload({ ownerId: 'browser:carol', agent: 'helpdesk', body: chunked(huge), filename: 'huge.png' })).rejects.toMatchObject({
      code: 'attachment_too_large',
    });
    await expect(saveUpload({ ownerId: 'browser:carol', agent: 'helpdesk', body: streamOf(bytes('not a file')), filename: 'x.png' })).rejects.toMatchObject({
      code: 'attachment_type',
    });
    // A body that breaks off (a client gone, a stalled upload given up) is kept no more than a refused one.
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(PNG);
        controller.error(new Error('the client went away'));
      },
    });
    await expect(saveUpload({ ownerId: 'browser:carol', agent: 'helpdesk', body: broken })).rejects.toThrow('the client went away');
    expect(await files()).toEqual([]);
    expect(await rowsOf('browser:carol')).toEqual([]);
  });

  it('gives a browser identity STACKBONE_MAX_UPLOADS_PER_HOUR uploads an hour; the next is too_many_uploads with a Retry-After, nothing kept', async () => {
    vi.stubEnv('STACKBONE_MAX_UPLOADS_PER_HOUR', '3');
    for (let i = 0; i < 3; i++) await saveUpload({ ownerId: 'browser:dave', agent: 'helpdesk', body: streamOf(PNG) });
    const refused = await saveUpload({ ownerId: 'browser:dave', agent: 'helpdesk', body: streamOf(PNG) }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'too_many_uploads', message: expect.stringContaining('STACKBONE_MAX_UPLOADS_PER_HOUR') });
    expect((refused as AttachmentRefusal).retryAfterSeconds).toBeGreaterThan(3590);
    expect(await rowsOf('browser:dave')).toHaveLength(3);
    expect(await files()).toHaveLength(6); // three files, three records
    // A key is an operator's: no quota unless one is set for keys.
    for (let i = 0; i < 4; i++) await saveUpload({ ownerId: 'key:ops', agent: 'helpdesk', body: streamOf(PNG) });
  });

  it('holds a browser identity to STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER: a file past it is cut off as it streams, a full quota refuses', async () => {
    vi.stubEnv('STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER', String(PNG.byteLength * 2 + 10));
    await saveUpload({ ownerId: 'browser:erin', agent: 'helpdesk', body: streamOf(PNG) });
    const big = new Uint8Array(4096);
    big.set(PNG);
    await expect(saveUpload({ ownerId: 'browser:erin', agent: 'helpdesk', body: chunked(big, 16) })).rejects.toMatchObject({ code: 'attachment_storage_full' });
    await saveUpload({ ownerId: 'browser:erin', agent: 'helpdesk', body: streamOf(PNG) });
    // 10 bytes left: the type check reads 16 bytes, so even this PNG is over at once.
    await expect(saveUpload({ ownerId: 'browser:erin', agent: 'helpdesk', body: streamOf(PNG) })).rejects.toMatchObject({ code: 'attachment_storage_full' });
    expect((await rowsOf('browser:erin')).map((row) => row.size)).toEqual([PNG.byteLength, PNG.byteLength]);
    expect(await files()).toHaveLength(4);
  });

  it('stores bytes sent inline once, named by their message: the same file is the same attachment', async () => {
    const first = await saveInlineAttachment({ ownerId: 'browser:alice', agent: 'helpdesk', bytes: PNG });
    const again = await saveInlineAttachment({ ownerId: 'browser:alice', agent: 'helpdesk', bytes: PNG });
    const other = await saveInlineAttachment({ ownerId: 'browser:bob', agent: 'helpdesk', bytes: PNG });
    expect(first.id).toBe(again.id);
    expect(first.id).not.toBe(other.id);
    expect(first.filename).toBe('attachment.png');
    const [row] = (await rowsOf('browser:alice')).filter((candidate) => candidate.id === first.id);
    expect(row!.claimedAt).not.toBeNull();
  });
});
