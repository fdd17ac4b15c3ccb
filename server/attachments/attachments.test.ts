// Attachments below the runtime: what the bytes are (not the name), the size limits, storing a
// file for its owner only, and the URL that names it.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachmentIdOf, checkAttachment, findAttachment, getAttachmentStorage, saveAttachment, sniffType } from '.';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

describe('attachments: the type is what the bytes are', () => {
  it('knows PNG, JPEG, GIF, WebP and PDF by their first bytes', () => {
    expect(sniffType(PNG)).toBe('image/png');
    expect(sniffType(bytes('\xff\xd8\xff\xe0\x00\x10JFIF'))).toBe('image/jpeg');
    expect(sniffType(bytes('GIF89a\x01\x00'))).toBe('image/gif');
    expect(sniffType(bytes('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
    expect(sniffType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it('refuses anything else by name, saying what passes, whatever the file is called', () => {
    // A HEIC photo (ftyp box) and a text file renamed to .png.
    expect(checkAttachment(bytes('\x00\x00\x00\x18ftypheic'), 'photo.heic')).toEqual({
      ok: false,
      code: 'attachment_type',
      message: 'photo.heic: only PNG, JPEG, GIF, WebP images and PDFs.',
    });
    expect(checkAttachment(bytes('just some text'), 'photo.png')).toMatchObject({ ok: false, code: 'attachment_type' });
    expect(checkAttachment(bytes('RIFF\x10\x00\x00\x00WAVEfmt '), 'sound.webp')).toMatchObject({ ok: false, code: 'attachment_type' });
  });
});

describe('attachments: size limits', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('holds images and PDFs to their own limits, from the environment', () => {
    vi.stubEnv('STACKBONE_MAX_IMAGE_BYTES', '64');
    vi.stubEnv('STACKBONE_MAX_PDF_BYTES', '2048');
    expect(checkAttachment(PNG, 'photo.png')).toEqual({
      ok: false,
      code: 'attachment_too_large',
      message: 'photo.png: 70 B is over the 64 B an image may be.',
    });
    const pdf = bytes(`%PDF-1.7\n${'x'.repeat(1000)}`);
    expect(checkAttachment(pdf, 'notes.pdf')).toEqual({ ok: true, mediaType: 'application/pdf' });
    expect(checkAttachment(bytes(`%PDF-1.7\n${'x'.repeat(3000)}`), 'big.pdf')).toMatchObject({ ok: false, code: 'attachment_too_large' });
  });

  it('defaults to 5 MB for an image', () => {
    expect(checkAttachment(PNG, 'photo.png')).toEqual({ ok: true, mediaType: 'image/png' });
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(PNG);
    expect(checkAttachment(huge, 'huge.png')).toMatchObject({ message: 'huge.png: 5 MB is over the 5 MB an image may be.' });
  });
});

describe('attachments: stored for their owner', () => {
  beforeEach(async () => {
    vi.stubEnv('STACKBONE_ATTACHMENTS_DIR', await mkdtemp(path.join(os.tmpdir(), 'stackbone-attachments-')));
    vi.stubEnv('BLOB_READ_WRITE_TOKEN', '');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('stores the bytes with a sniffed type and a clean name, and finds them only for their owner', async () => {
    const saved = await saveAttachment({ ownerId: 'alice', agent: 'support', bytes: PNG, filename: '../../etc/photo.png' });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    const { attachment } = saved;
    expect(attachment).toMatchObject({
      mediaType: 'image/png',
      filename: 'photo.png',
      size: PNG.byteLength,
      url: `/api/agents/support/attachments/${attachment.id}`,
    });
    expect(await findAttachment('alice', 'support', `http://localhost:3000${attachment.url}`)).toEqual(attachment);
    expect(await findAttachment('bob', 'support', attachment.url)).toBeUndefined();
    expect(Buffer.from((await getAttachmentStorage().read(attachment.id))!)).toEqual(PNG);
    // A URL that is not ours is no attachment: it is never fetched.
    expect(await findAttachment('alice', 'support', 'https://example.com/photo.png')).toBeUndefined();
    expect(attachmentIdOf('/api/agents/support/attachments/../../secrets')).toBeUndefined();
  });

  it('stores bytes sent inline once: the same file is the same attachment', async () => {
    const first = await saveAttachment({ ownerId: 'alice', agent: 'support', bytes: PNG, contentId: true });
    const again = await saveAttachment({ ownerId: 'alice', agent: 'support', bytes: PNG, contentId: true });
    const other = await saveAttachment({ ownerId: 'bob', agent: 'support', bytes: PNG, contentId: true });
    expect(first.ok && again.ok && first.attachment.id === again.attachment.id).toBe(true);
    expect(first.ok && other.ok && first.attachment.id !== other.attachment.id).toBe(true);
    expect(first.ok && first.attachment.filename).toBe('attachment.png');
  });
});
