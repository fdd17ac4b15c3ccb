// What a model step reads of a thread's attachments (docs/models.md, "Attachments"): only the
// files it sends — from the newest user message back, within STACKBONE_MAX_ATTACHMENT_BYTES_PER_STEP
// — chosen by their recorded size, so a file left out is never read at all.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Attachment, ChatMessage } from '../store/messages';
import { attachmentBytesPerStep } from './attachment-limits';
import { streamOf } from './byte-streams';
import { chooseStepFiles, loadAttachmentBytes } from './load-attachments';
import { getAttachmentStorage } from './storage';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'stackbone-step-files-'));
  vi.stubEnv('STACKBONE_ATTACHMENTS_DIR', directory);
  vi.stubEnv('BLOB_READ_WRITE_TOKEN', '');
});
afterAll(() => vi.unstubAllEnvs());

/** A PDF of `size` bytes stored under `name`, as the log's message names it. */
async function stored(name: string, size: number): Promise<Attachment> {
  const bytes = new Uint8Array(size);
  bytes.set(Buffer.from('%PDF-1.7\n'));
  const id = `att_${name.padEnd(20, '0')}`;
  const record = await getAttachmentStorage().put({ id, ownerId: 'browser:a', mediaType: 'application/pdf', filename: `${name}.pdf` }, streamOf(bytes));
  return { id, url: `/api/agents/helpdesk/attachments/${id}`, mediaType: record.mediaType, filename: record.filename, size: record.size };
}

const user = (id: string, attachments: Attachment[], content = 'look'): ChatMessage => ({ id, role: 'user', content, attachments });

describe('a model step’s files', () => {
  it('are 20 MB at most by default', () => {
    expect(attachmentBytesPerStep()).toBe(20 * 1024 * 1024);
  });

  it('are the newest that fit the budget; from the first that does not, it and every older one are left out unread', async () => {
    const [oldest, old, middle, newest] = await Promise.all([stored('oldest', 100), stored('old', 4000), stored('middle', 3000), stored('newest', 2000)]);
    const messages: ChatMessage[] = [
      user('u1', [oldest]),
      { id: 'a1', role: 'assistant', content: 'seen' },
      user('u2', [old, middle]),
      user('u3', [newest, middle]),
      user('u4', [], 'hello again'),
    ];
    expect(chooseStepFiles(messages, 5000)).toEqual({ sent: [newest, middle], leftOut: new Set([old.id, oldest.id]) });
    // A file left out is never read: its bytes are a directory now, which a read would fail on.
    for (const file of [old, oldest]) {
      await rm(path.join(directory, file.id));
      await mkdir(path.join(directory, file.id));
    }
    const files = await loadAttachmentBytes(messages, 5000);
    expect([...files.bytes.keys()].sort()).toEqual([middle.id, newest.id].sort());
    expect([...files.bytes.values()].reduce((sum, bytes) => sum + bytes.byteLength, 0)).toBe(5000);
    expect(files.leftOut).toEqual(new Set([old.id, oldest.id]));
    expect(files.budget).toBe(5000);
  });

  it('read nothing for a thread without attachments', async () => {
    const files = await loadAttachmentBytes([user('u1', [], 'hi')]);
    expect([files.bytes.size, files.leftOut.size]).toEqual([0, 0]);
  });
});
