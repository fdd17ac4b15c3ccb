// Attachments under abuse (security reviews C F1/F9, B F2/F3/F4; docs/security.md, "The open
// web"), on a keyed server with the public chat open, on SQLite and PostgreSQL. From one browser
// identity: the 21st upload of the hour, a file past the 50 MB it may keep (refused before a byte
// is read, and mid-stream), a 5th upload while 4 stall (the 4 given up at the idle timeout, not
// Node's 300 s), and a message naming 11 files — each refused at its documented limit with its
// code, nothing stored and nothing named; from one address, identities together past the bytes the
// address may upload an hour. A key holder's thread of 40 files followed by "hello
// again": each model step is sent (and so reads) at most its byte budget, the rest as notes — seen
// in the requests the model provider received. Beside them a real customer with one thread, two
// uploads and a paused refund is never refused, and an attachment reaches the browser with its
// own sandbox CSP.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BaseEvent } from '@ag-ui/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attachmentMessage, postRun, TINY_PDF, TINY_PNG, uploadAttachment, userMessage, type UploadedAttachment } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { countRows, readAttachmentRows } from '../support/inspect';
import { openAiChatOnlyEnv, startProviderServer, type ProviderServer } from '../support/provider-server';
import { startServer, type TestServer } from '../support/server';
import { newGuest } from '../support/guest';

const PORTS = { sqlite: 3355, postgres: 3356 } as const;
const KEY = 'attachment-limits-key-0123456789';
const SECRET = 'attachment-limits-secret-'.padEnd(64, 'x');
const MB = 1024 * 1024;
/** The server's budget of file bytes per model step, small enough that 40 files of 500 KB pass it. */
const STEP_BUDGET = 4 * MB;
/** The bytes the browsers of one address may upload an hour here (docs/security.md: 100 MB by default). */
const ADDRESS_BYTES = 60 * MB;
/** How long an upload may send nothing here (docs/security.md: 15 s by default). */
const IDLE_SECONDS = 2;

type Kind = keyof typeof PORTS;
const servers = new Map<Kind, { server: TestServer; directory: string }>();
let provider: ProviderServer;

beforeAll(async () => {
  provider = await startProviderServer();
  const start = async (kind: Kind, databaseUrl: string) => {
    const directory = await mkdtemp(path.join(os.tmpdir(), `stackbone-attachment-limits-${kind}-`));
    const env = {
      STACKBONE_API_KEYS: KEY,
      STACKBONE_SECRET: SECRET,
      STACKBONE_WEB_ACCESS: 'open',
      STACKBONE_ATTACHMENTS_DIR: directory,
      STACKBONE_UPLOAD_IDLE_SECONDS: String(IDLE_SECONDS),
      STACKBONE_MAX_ATTACHMENT_BYTES_PER_STEP: String(STEP_BUDGET),
      // Over one identity's 50 MB, under two: the address's limit is met by identities together.
      STACKBONE_MAX_UPLOAD_BYTES_PER_ADDRESS: String(ADDRESS_BYTES),
      // The helpdesk agent on the real OpenAI provider, pointed at the test provider: what each step sent is in its requests.
      ...openAiChatOnlyEnv(provider.baseUrl),
    };
    servers.set(kind, { server: await startServer({ port: PORTS[kind], databaseUrl, env }), directory });
  };
  await Promise.all([
    start('sqlite', await freshSqliteUrl()),
    (async () => {
      if (await postgresReachable()) await start('postgres', await freshPostgresUrl('stackbone_attachment_limits'));
      else console.warn('!!! PostgreSQL unreachable: attachment limits run on SQLite only');
    })(),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map(({ server }) => server.kill()));
  await provider?.close();
});

let addresses = 0;
/** An address of its own for a case (TEST-NET-2), as the nearest proxy would report it. */
const newAddress = () => `198.51.100.${++addresses}`;

/** A PDF of exactly `size` bytes whose content says which it is. */
function pdfOf(size: number, mark: string = randomUUID()): Buffer {
  const bytes = Buffer.alloc(size, mark.charCodeAt(0));
  Buffer.from(`%PDF-1.4\n${mark}\n`).copy(bytes);
  return bytes;
}

type Part = { type: string; text?: string; file?: { file_data: string }; image_url?: { url: string } };
const fromDataUrl = (url: string) => Buffer.from(url.replace(/^data:[^;]+;base64,/, ''), 'base64');

/** The files (images and PDFs, their bytes) and texts of the user messages one OpenAI Chat Completions request carried. */
function sentUserParts(body: Record<string, unknown>): { files: Buffer[]; texts: string[] } {
  const parts = (body.messages as { role: string; content: string | Part[] }[])
    .filter((message) => message.role === 'user')
    .flatMap((message) => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content));
  return {
    files: parts.flatMap((part) =>
      part.type === 'file' ? [fromDataUrl(part.file!.file_data)] : part.type === 'image_url' ? [fromDataUrl(part.image_url!.url)] : [],
    ),
    texts: parts.flatMap((part) => (part.type === 'text' ? [part.text!] : [])),
  };
}

const finished = (events: BaseEvent[]) => events.at(-1) as BaseEvent & { outcome?: { type: string } };

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe(`attachment limits on ${kind}`, () => {
    const server = () => {
      const found = servers.get(kind);
      if (!found) throw new Error(`no ${kind} server (PostgreSQL unreachable?)`);
      return found.server;
    };
    /** Everything in the attachments directory, uploads in progress too. */
    const stored = async () => {
      const directory = servers.get(kind)!.directory;
      const top = (await readdir(directory).catch(() => [] as string[])).filter((name) => name !== '.uploading');
      const uploading = await readdir(path.join(directory, '.uploading')).catch(() => [] as string[]);
      return [...top, ...uploading.map((name) => `.uploading/${name}`)].sort();
    };
    /** What the server keeps of attachments: the files and the rows. */
    const kept = async () => ({ files: await stored(), rows: await readAttachmentRows(server().databaseUrl) });

    /** One page load: a new guest's cookie. */
    async function identity(address = newAddress()): Promise<{ cookie: string; address: string; headers: Record<string, string> }> {
      const { cookie } = await newGuest(server().url, { 'x-forwarded-for': address });
      return { cookie, address, headers: { cookie, origin: server().url, 'x-forwarded-for': address } };
    }

    /** POST the raw bytes with ?filename= (the API's other way in); answers the status, the body and the headers. */
    async function uploadRaw(bytes: Uint8Array, filename: string, headers: Record<string, string>) {
      const response = await fetch(`${server().url}/api/agents/helpdesk/attachments?filename=${encodeURIComponent(filename)}`, {
        method: 'POST',
        body: Buffer.from(bytes),
        headers,
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as UploadedAttachment & { error?: { code: string; message: string } },
      };
    }

    beforeEach(() => provider.reset());
    afterEach(() => expect(provider.pending(), 'scripted replies left over').toBe(0));

    /** The address of an identity that used up its uploads of the hour: a real customer there is another identity. */
    let floodedAddress = '';

    it('gives one identity 20 uploads an hour: the 21st is 429 too_many_uploads with Retry-After, and nothing of it is kept', async () => {
      const customer = await identity();
      floodedAddress = customer.address;
      for (let i = 0; i < 20; i++) expect((await uploadAttachment(server().url, 'helpdesk', TINY_PNG, `photo-${i}.png`, customer.headers)).status).toBe(201);
      const before = await kept();
      const refused = await uploadRaw(TINY_PNG, 'photo-20.png', customer.headers);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 'too_many_uploads', message: expect.stringContaining('STACKBONE_MAX_UPLOADS_PER_HOUR') });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
      expect(await kept()).toEqual(before);
      // Another identity uploads as before.
      expect((await uploadAttachment(server().url, 'helpdesk', TINY_PNG, 'mine.png', (await identity()).headers)).status).toBe(201);
    });

    it('keeps one identity within 50 MB: past it a file is refused before a byte is read, or cut off as it streams; nothing of it is kept', async () => {
      const full = await identity();
      // Five PDFs of 10 MB, the most a PDF may be, sent as a browser's form does: 50 MB exactly.
      for (let i = 0; i < 5; i++) expect((await uploadAttachment(server().url, 'helpdesk', pdfOf(10 * MB), `report-${i}.pdf`, full.headers)).status).toBe(201);
      let before = await kept();
      const refused = await uploadRaw(TINY_PDF, 'one-more.pdf', full.headers);
      expect([refused.status, refused.body.error?.code]).toEqual([413, 'attachment_storage_full']);
      expect(refused.body.error?.message).toContain('STACKBONE_MAX_ATTACHMENT_BYTES_PER_OWNER');
      expect(await kept()).toEqual(before);

      // 49.9 MB kept: 1 MB more passes the quota as it streams; a file that fits the rest is taken.
      const almost = await identity();
      for (let i = 0; i < 4; i++) expect((await uploadRaw(pdfOf(10 * MB), `report-${i}.pdf`, almost.headers)).status).toBe(201);
      expect((await uploadRaw(pdfOf(Math.round(9.9 * MB)), 'report-4.pdf', almost.headers)).status).toBe(201);
      before = await kept();
      const cut = await uploadRaw(pdfOf(MB), 'megabyte.pdf', almost.headers);
      expect([cut.status, cut.body.error?.code]).toEqual([413, 'attachment_storage_full']);
      expect(await kept()).toEqual(before);
      expect((await uploadRaw(TINY_PDF, 'small.pdf', almost.headers)).status).toBe(201);
    });

    it('holds the browsers of one address to their bytes of the hour together: past them a new identity there is 429 too_many_address_uploads, nothing kept; another address uploads', async () => {
      const address = newAddress();
      const [first, second] = [await identity(address), await identity(address)];
      // Six PDFs of 10 MB, three from each identity, each within its own quota: the address's 60 MB.
      for (let i = 0; i < 6; i++) expect((await uploadRaw(pdfOf(10 * MB), `part-${i}.pdf`, (i % 2 ? second : first).headers)).status).toBe(201);
      const before = await kept();
      const refused = await uploadRaw(TINY_PDF, 'one-more.pdf', (await identity(address)).headers);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({
        code: 'too_many_address_uploads',
        message: expect.stringContaining('STACKBONE_MAX_UPLOAD_BYTES_PER_ADDRESS'),
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
      expect(await kept()).toEqual(before);
      expect((await uploadRaw(TINY_PDF, 'elsewhere.pdf', (await identity()).headers)).status).toBe(201);
    });

    it('lets one identity have 4 uploads under way: a 5th is 429 at once; the stalled 4 are 408 upload_timeout at the idle time, nothing kept', async () => {
      const customer = await identity();
      const before = await kept();
      const url = new URL(`${server().url}/api/agents/helpdesk/attachments?filename=stalled.pdf`);
      /** An upload that sends 1 MB of a PDF and then nothing; answers its status, code and how long it waited. */
      const stalled = () =>
        new Promise<{ status?: number; code?: string; ms: number; error?: string }>((resolve) => {
          const startedAt = Date.now();
          const request = http.request({
            host: url.hostname,
            port: url.port,
            path: url.pathname + url.search,
            method: 'POST',
            headers: { ...customer.headers, 'transfer-encoding': 'chunked' },
          });
          request.on('response', (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => {
              request.destroy();
              resolve({ status: response.statusCode, code: (JSON.parse(text) as { error: { code: string } }).error.code, ms: Date.now() - startedAt });
            });
          });
          request.on('error', (error) => resolve({ error: error.message, ms: Date.now() - startedAt }));
          request.write(pdfOf(MB));
        });
      const uploads = Array.from({ length: 4 }, stalled);
      // Their bodies are being read (each stalls after its first megabyte) before the fifth comes.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const fifth = await uploadRaw(TINY_PNG, 'fifth.png', customer.headers);
      expect([fifth.status, fifth.body.error?.code]).toEqual([429, 'too_many_uploads_in_flight']);
      const answers = await Promise.all(uploads);
      for (const answer of answers) {
        expect(answer).toMatchObject({ status: 408, code: 'upload_timeout' });
        expect(answer.ms).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000);
        expect(answer.ms).toBeLessThan(IDLE_SECONDS * 1000 + 8_000);
      }
      expect(await kept()).toEqual(before);
      // Their places are given back.
      expect((await uploadRaw(TINY_PNG, 'after.png', customer.headers)).status).toBe(201);
    });

    it('refuses a message naming 11 files with 400 too_many_attachments: no thread written, no file named; 10 go through', async () => {
      const customer = await identity();
      const files: UploadedAttachment[] = [];
      for (let i = 0; i < 11; i++) files.push((await uploadAttachment(server().url, 'helpdesk', TINY_PNG, `page-${i}.png`, customer.headers)).body);
      const threadId = randomUUID();
      const refused = await postRun(
        server().url,
        'helpdesk',
        { threadId, runId: randomUUID(), messages: [attachmentMessage('all of these', files)] },
        customer.headers,
      );
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text).error).toMatchObject({ code: 'too_many_attachments', message: expect.stringContaining('at most 10') });
      expect((await countRows(server().databaseUrl, threadId)).events).toBe(0);
      expect(
        (
          await readAttachmentRows(
            server().databaseUrl,
            files.map((file) => file.id),
          )
        ).filter((row) => row.claimed),
      ).toEqual([]);

      provider.script({ text: 'Ten pages received.' });
      const taken = await postRun(
        server().url,
        'helpdesk',
        { threadId, runId: randomUUID(), messages: [attachmentMessage('these ten', files.slice(0, 10))] },
        customer.headers,
      );
      expect(finished(taken.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(sentUserParts((await provider.request(0)).body).files).toEqual(Array(10).fill(TINY_PNG));
      const claimed = new Map(
        (
          await readAttachmentRows(
            server().databaseUrl,
            files.map((file) => file.id),
          )
        ).map((row) => [row.id, row.claimed]),
      );
      expect(files.map((file) => claimed.get(file.id))).toEqual([...Array(10).fill(true), false]);
    });

    it('sends each model step of a 40-file thread at most its byte budget, newest first, the rest as notes: "hello again" reads 4 MB, not 20', async () => {
      const key = { 'x-api-key': KEY };
      const threadId = randomUUID();
      const uploaded: { attachment: UploadedAttachment; bytes: Buffer }[] = [];
      for (let i = 0; i < 40; i++) {
        const bytes = pdfOf(500_000, `file-${String(i).padStart(2, '0')}`);
        const upload = await uploadRaw(bytes, `file-${i}.pdf`, key);
        expect(upload.status).toBe(201);
        uploaded.push({ attachment: upload.body, bytes });
      }
      for (let batch = 0; batch < 4; batch++) {
        provider.script({ text: `Got batch ${batch}.` });
        const files = uploaded.slice(batch * 10, batch * 10 + 10).map((entry) => entry.attachment);
        const run = await postRun(server().url, 'helpdesk', { threadId, runId: randomUUID(), messages: [attachmentMessage(`batch ${batch}`, files)] }, key);
        expect(finished(run.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      }
      provider.script({ text: 'Hello again.' });
      const hello = await postRun(server().url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('hello again')] }, key);
      expect(finished(hello.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });

      expect(provider.requests).toHaveLength(5);
      for (const request of provider.requests) {
        const sent = sentUserParts(request.body).files;
        expect(sent.reduce((sum, file) => sum + file.byteLength, 0)).toBeLessThanOrEqual(STEP_BUDGET);
      }
      // The last step: the newest eight files (4 MB of 20 MB), byte for byte; a note for each of the other 32.
      const last = sentUserParts(provider.requests.at(-1)!.body);
      expect(last.files).toEqual(uploaded.slice(30, 38).map((entry) => entry.bytes));
      const notes = last.texts.filter((text) =>
        /^\[Attachment file-\d+\.pdf \(application\/pdf, 488 KB\) was left out: a step carries at most 4 MB of files/.test(text),
      );
      expect(notes).toHaveLength(32);
      expect(last.texts).toContain('hello again');
    });

    it('never refuses a real customer: a thread, two uploads, a paused refund, from a flooded address; the file comes back with its sandbox CSP', async () => {
      const customer = await identity(floodedAddress || newAddress());
      const photo = await uploadAttachment(server().url, 'helpdesk', TINY_PNG, 'receipt.png', customer.headers);
      const receipt = await uploadAttachment(server().url, 'helpdesk', TINY_PDF, 'order.pdf', customer.headers);
      expect([photo.status, receipt.status]).toEqual([201, 201]);
      const threadId = randomUUID();
      provider.script({ text: 'I see your receipt and your order.' });
      const asked = await postRun(
        server().url,
        'helpdesk',
        {
          threadId,
          runId: randomUUID(),
          messages: [attachmentMessage('My order arrived broken, here are the receipt and the order.', [photo.body, receipt.body])],
        },
        customer.headers,
      );
      expect(finished(asked.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(sentUserParts((await provider.request(0)).body).files).toEqual([TINY_PNG, TINY_PDF]);

      provider.script({ toolCalls: [{ id: 'call_refund', name: 'refundPayment', input: { orderId: 'po_42', amount: 19.99 } }] });
      const refund = await postRun(
        server().url,
        'helpdesk',
        { threadId, runId: randomUUID(), messages: [userMessage('Please refund order po_42 for 19.99')] },
        customer.headers,
      );
      expect(finished(refund.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' } });

      const file = await fetch(`${server().url}${photo.body.url}`, { headers: customer.headers });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(TINY_PNG);
      const policy = file.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/^sandbox; default-src 'none'/);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('x-frame-options')).toBe('DENY');
      // The page keeps the app's own policy.
      const page = await fetch(`${server().url}/`, { headers: customer.headers });
      await page.text();
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    });
  });
}
