// The sweep of uploads no message named (docs/models.md, "Attachments"): past the grace period
// an unnamed upload's bytes and record leave storage and its row stops counting bytes; a named
// one, an inline one and one still within its grace stay; a swept upload can no longer be named;
// its row is forgotten once its hour of counting is over. On a real SQLite database and real files.
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getAttachmentStorage, nameAttachments, saveInlineAttachment, saveUpload, sweepUnclaimedAttachments } from '.';
import { closeAppDatabase, withAppDatabase } from '../store/app-database';
import { freshSqliteUrl } from '../../tests/support/database';
import { streamOf } from './byte-streams';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const SECOND = 1000;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'stackbone-sweep-'));
  vi.stubEnv('DATABASE_URL', await freshSqliteUrl());
  vi.stubEnv('STACKBONE_ATTACHMENTS_DIR', directory);
  vi.stubEnv('BLOB_READ_WRITE_TOKEN', '');
  vi.stubEnv('STACKBONE_ATTACHMENT_GRACE_SECONDS', '60');
}, 60_000);
afterAll(async () => {
  await closeAppDatabase();
  vi.unstubAllEnvs();
});

const rowOf = (id: string) => withAppDatabase((db) => db.attachment.findUnique({ where: { id } }));

describe('the attachment sweep', () => {
  it('takes only uploads no message named, once their grace is over, and they can no longer be named', async () => {
    const owner = 'browser:sweep';
    const unnamed = await saveUpload({ ownerId: owner, agent: 'helpdesk', body: streamOf(PNG), filename: 'forgotten.png' });
    const named = await saveUpload({ ownerId: owner, agent: 'helpdesk', body: streamOf(PDF), filename: 'sent.pdf' });
    const inline = await saveInlineAttachment({ ownerId: owner, agent: 'helpdesk', bytes: PDF, filename: 'inline.pdf' });
    expect((await nameAttachments(owner, 'helpdesk', [named.url])).get(named.url)).toEqual(named);

    // Within the grace period nothing goes.
    expect(await sweepUnclaimedAttachments(new Date(Date.now() + 30 * SECOND))).toEqual({ swept: 0, forgotten: 0 });
    expect(await getAttachmentStorage().record(unnamed.id)).toBeDefined();

    const later = new Date(Date.now() + 61 * SECOND);
    expect(await sweepUnclaimedAttachments(later)).toEqual({ swept: 1, forgotten: 0 });
    expect(await getAttachmentStorage().record(unnamed.id)).toBeUndefined();
    expect(await getAttachmentStorage().read(unnamed.id)).toBeUndefined();
    expect((await readdir(directory)).sort()).toEqual([inline.id, `${inline.id}.json`, named.id, `${named.id}.json`, '.uploading'].sort());
    // Its row stays for the hour, counting the upload but no bytes; a message naming it now is refused.
    expect(await rowOf(unnamed.id)).toMatchObject({ size: 0, sweptAt: later, claimedAt: null });
    expect((await nameAttachments(owner, 'helpdesk', [unnamed.url])).get(unnamed.url)).toBeUndefined();
    expect(await rowOf(unnamed.id)).toMatchObject({ claimedAt: null });
    // Sweeping again finds nothing new; the named and the inline file are there still.
    expect(await sweepUnclaimedAttachments(new Date(later.getTime() + SECOND))).toEqual({ swept: 0, forgotten: 0 });
    expect(Buffer.from((await getAttachmentStorage().read(named.id))!)).toEqual(PDF);
    expect(Buffer.from((await getAttachmentStorage().read(inline.id))!)).toEqual(PDF);

    // Past the hour, the swept row is forgotten; the others stay.
    expect(await sweepUnclaimedAttachments(new Date(Date.now() + 2 * 60 * 60 * SECOND))).toEqual({ swept: 0, forgotten: 1 });
    expect(await rowOf(unnamed.id)).toBeNull();
    expect(await rowOf(named.id)).toMatchObject({ size: PDF.byteLength });
  });

  it('leaves an upload a message names after the sweep looked for candidates but before it took it', async () => {
    const owner = 'browser:race';
    const upload = await saveUpload({ ownerId: owner, agent: 'helpdesk', body: streamOf(PNG) });
    // The message names it first: the sweep's take finds it named and passes it by.
    await nameAttachments(owner, 'helpdesk', [upload.url]);
    expect((await sweepUnclaimedAttachments(new Date(Date.now() + 61 * SECOND))).swept).toBe(0);
    expect(await getAttachmentStorage().read(upload.id)).toBeDefined();
  });
});
