// Uploads no message named are swept (docs/models.md, "Attachments"; docs/deploy.md), on SQLite
// and PostgreSQL: by the background loop of `next start` (STACKBONE_ATTACHMENT_SWEEP_MS), and —
// with the loop off, as on Vercel — by GET /api/cron/attachments, which only a cron caller may
// call. After the grace period the unnamed upload's file and record leave storage and it can no
// longer be read or named; an upload a message named stays.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BaseEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentMessage, postRun, TINY_PDF, TINY_PNG, uploadAttachment } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { eventually, readAttachmentRows } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';

const PORTS = { sqlite: 3357, postgres: 3358 } as const;
const CRON_SECRET = `cron-${randomUUID()}`;
const GRACE_SECONDS = 2;

type Kind = keyof typeof PORTS;

interface Setup {
  databaseUrl: string;
  directory: string;
  server?: TestServer;
}
const setups = new Map<Kind, Setup>();

/** The server on `setup`'s database and directory, the sweep loop ticking every `sweepMs` (0: off). */
async function start(kind: Kind, setup: Setup, sweepMs: number): Promise<TestServer> {
  await setup.server?.kill();
  setup.server = await startServer({
    port: PORTS[kind],
    databaseUrl: setup.databaseUrl,
    env: {
      STACKBONE_ATTACHMENTS_DIR: setup.directory,
      STACKBONE_ATTACHMENT_GRACE_SECONDS: String(GRACE_SECONDS),
      STACKBONE_ATTACHMENT_SWEEP_MS: String(sweepMs),
      CRON_SECRET,
    },
  });
  return setup.server;
}

beforeAll(async () => {
  const prepare = async (kind: Kind, databaseUrl: string) => {
    const setup = { databaseUrl, directory: await mkdtemp(path.join(os.tmpdir(), `stackbone-attachment-sweep-${kind}-`)) };
    setups.set(kind, setup);
    await start(kind, setup, 300);
  };
  await Promise.all([
    prepare('sqlite', await freshSqliteUrl()),
    (async () => {
      if (await postgresReachable()) await prepare('postgres', await freshPostgresUrl('stackbone_attachment_sweep'));
      else console.warn('!!! PostgreSQL unreachable: the attachment sweep runs on SQLite only');
    })(),
  ]);
}, 120_000);

afterAll(() => Promise.all([...setups.values()].map((setup) => setup.server?.kill())));

const finished = (events: BaseEvent[]) => events.at(-1) as BaseEvent & { outcome?: { type: string } };

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe(`the attachment sweep on ${kind}`, () => {
    const setup = () => {
      const found = setups.get(kind);
      if (!found?.server) throw new Error(`no ${kind} server (PostgreSQL unreachable?)`);
      return found as Required<Setup>;
    };
    const files = async () => (await readdir(setup().directory)).filter((name) => name !== '.uploading').sort();
    const status = async (url: string) => (await fetch(`${setup().server.url}${url}`)).status;

    /** One upload the thread's message names, one nobody names. */
    async function uploadPair() {
      const { url } = setup().server;
      const named = (await uploadAttachment(url, 'helpdesk', TINY_PDF, 'sent.pdf')).body;
      const unnamed = (await uploadAttachment(url, 'helpdesk', TINY_PNG, 'forgotten.png')).body;
      const run = await postRun(url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [attachmentMessage('here it is', [named])] });
      expect(finished(run.events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      return { named, unnamed };
    }

    /** After its sweep: the unnamed upload is gone — no file, 404, not nameable — and the named one is kept. */
    async function expectSwept({ named, unnamed }: Awaited<ReturnType<typeof uploadPair>>) {
      const left = await files();
      expect(left).toEqual(expect.arrayContaining([named.id, `${named.id}.json`]));
      expect(left.filter((name) => name.startsWith(unnamed.id))).toEqual([]);
      expect(await status(unnamed.url)).toBe(404);
      expect(await status(named.url)).toBe(200);
      expect(await readAttachmentRows(setup().databaseUrl, [named.id, unnamed.id])).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: named.id, claimed: true, swept: false, size: TINY_PDF.byteLength }),
          expect.objectContaining({ id: unnamed.id, claimed: false, swept: true, size: 0 }),
        ]),
      );
      const late = await postRun(setup().server.url, 'helpdesk', {
        threadId: randomUUID(),
        runId: randomUUID(),
        messages: [attachmentMessage('sending it after all', [unnamed])],
      });
      expect(late.status).toBe(404);
      expect(JSON.parse(late.text).error).toMatchObject({ code: 'not_found', what: 'attachment' });
    }

    it('the loop of `next start` deletes an upload no message named once its grace is over, and keeps the one a message named', async () => {
      const pair = await uploadPair();
      expect(await status(pair.unnamed.url)).toBe(200);
      await eventually(async () => (await status(pair.unnamed.url)) === 404, 15_000, 'the unnamed upload swept');
      await expectSwept(pair);
    });

    it('with the loop off (a host without a long-lived process), GET /api/cron/attachments sweeps it, for a cron caller only', async () => {
      const server = await start(kind, setup(), 0);
      const pair = await uploadPair();
      await new Promise((resolve) => setTimeout(resolve, (GRACE_SECONDS + 1) * 1000));
      // The loop is off: still there past its grace.
      expect(await status(pair.unnamed.url)).toBe(200);
      const anonymous = await fetch(`${server.url}/api/cron/attachments`);
      expect(anonymous.status).toBe(401);
      expect(await status(pair.unnamed.url)).toBe(200);
      const cron = await fetch(`${server.url}/api/cron/attachments`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      expect(cron.status).toBe(200);
      expect(await cron.json()).toMatchObject({ swept: 1 });
      await expectSwept(pair);
    });
  });
}
