// The inbox under a flood (docs/hitl.md, "Paging the inbox"; the review's F10): on a keyed server
// open to browsers, a key holder asks for a refund of its own; then 7 browser identities (a `GET /`
// each) ask for 30 refunds each, every one kept for key holders — newer than the key holder's,
// and more than a page. The key holder's own request is still first in GET /api/hitl and in the
// CLI, `filter=mine` lists it alone, and walking the pages — while new requests arrive between
// them — lists every pending request of the database exactly once. On SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import type { RunFinishedEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { stackbone } from '../support/cli';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { pendingInterruptIds } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';
import { newGuest } from '../support/guest';

const PORTS = { sqlite: 3391, postgres: 3392 } as const;
/** 32 bytes or more, as a keyed server requires (docs/security.md, "Modes"). */
const SECRET = 'inbox-paging-secret-0123456789abcdef0123';
const DESK_KEY = 'desk-key-inbox-paging-0123456789';
const OTHER_KEY = 'other-key-inbox-paging-0123456789';
const BROWSERS = 7;
const REFUNDS_EACH = 30;

interface Listed {
  id: string;
  sessionId: string;
  ownSession: boolean;
  toolName: string;
}
interface Page {
  interrupts: Listed[];
  nextCursor: string | null;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

for (const { kind } of backends()) {
  describe(`the inbox under a flood of others' requests, on ${kind}`, () => {
    let server: TestServer;
    let databaseUrl: string;

    beforeAll(async () => {
      databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_inbox_paging');
      const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-inbox-paging-')), 'ledger.jsonl');
      server = await startServer({
        port: PORTS[kind],
        databaseUrl,
        env: {
          ...fixtureEnv(ledgerFile),
          STACKBONE_LEASE_MS: '20000',
          STACKBONE_API_KEYS: `${DESK_KEY},${OTHER_KEY}`,
          STACKBONE_SECRET: SECRET,
          STACKBONE_WEB_ACCESS: 'open',
          // Each browser here asks for 30 refunds, more than the 5 paused threads an identity may hold
          // (docs/security.md, "The open web"; open-web-limits.test.ts proves that limit): the flood
          // this test pages through is the many identities' one.
          STACKBONE_MAX_PAUSED_THREADS: '40',
        },
      });
    });
    afterAll(async () => {
      await server?.kill();
    });

    /** A refund asked on a new thread of the helpdesk agent; the id of the approval it pauses on. */
    async function askRefund(headers: Record<string, string>): Promise<string> {
      const run = await postRun(
        server.url,
        'helpdesk',
        { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('refund order po_42 for 19.99')] },
        headers,
      );
      const outcome = (run.events.at(-1) as RunFinishedEvent | undefined)?.outcome;
      if (outcome?.type !== 'interrupt') throw new Error(`expected a pause, got ${run.status} ${run.text} ${JSON.stringify(run.events.at(-1))}`);
      return outcome.interrupts[0]!.id;
    }

    /** A guest: the session cookie of one `GET /`, sent as the app's own pages send it. */
    async function browser(): Promise<Record<string, string>> {
      const { cookie } = await newGuest(server.url);
      return { cookie, origin: server.url };
    }

    async function list(key: string, query = ''): Promise<Page> {
      const response = await fetch(`${server.url}/api/hitl${query}`, { headers: bearer(key) });
      expect(response.status, query).toBe(200);
      return (await response.json()) as Page;
    }

    /** Every page of a listing from the start; `between` runs after each page. */
    async function walk(key: string, query: string, between?: () => Promise<void>): Promise<{ ids: string[]; pages: number }> {
      const ids: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Page = await list(key, `?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        ids.push(...page.interrupts.map((item) => item.id));
        cursor = page.nextCursor;
        pages++;
        await between?.();
      } while (cursor && pages < 100);
      return { ids, pages };
    }

    it("keeps the key holder's own request first and reachable under 210 browsers' refunds; paging lists each pending one once", async () => {
      const own = await askRefund(bearer(DESK_KEY));
      expect((await list(DESK_KEY)).interrupts.map((item) => item.id)).toEqual([own]);

      const identities = await Promise.all(Array.from({ length: BROWSERS }, browser));
      const asks = identities.flatMap((headers) => Array.from({ length: REFUNDS_EACH }, () => headers));
      const flood: string[] = [];
      for (let i = 0; i < asks.length; i += 10) flood.push(...(await Promise.all(asks.slice(i, i + 10).map(askRefund))));
      expect(new Set(flood).size).toBe(BROWSERS * REFUNDS_EACH);

      // The first page, as Studio and the CLI ask for it: the key holder's own on top, then the others', a full page of them.
      const first = await list(DESK_KEY);
      expect(first.interrupts).toHaveLength(50);
      expect(first.interrupts[0]).toMatchObject({ id: own, ownSession: true, toolName: 'refundPayment' });
      expect(first.interrupts.slice(1).every((item) => !item.ownSession && flood.includes(item.id))).toBe(true);
      expect(first.nextCursor).toEqual(expect.any(String));
      // Whatever limit is asked for, the own request leads; `mine` is it alone, `key-holders` never has it.
      expect((await list(DESK_KEY, '?limit=1')).interrupts.map((item) => item.id)).toEqual([own]);
      expect(await list(DESK_KEY, '?filter=mine')).toEqual({ interrupts: [expect.objectContaining({ id: own })], nextCursor: null });
      const kept = await walk(DESK_KEY, 'filter=key-holders&limit=200');
      expect(kept.ids.toSorted()).toEqual(flood.toSorted());
      expect(kept.pages).toBe(2);
      // Another key holder decides the browsers' requests too, but never sees this key's own session's.
      expect((await walk(OTHER_KEY, 'limit=200')).ids.toSorted()).toEqual(flood.toSorted());

      // Walking every page while requests keep coming: each pending one of the database once, none of the new ones.
      const snapshot = await pendingInterruptIds(databaseUrl);
      expect(snapshot.toSorted()).toEqual([own, ...flood].toSorted());
      const arrived: string[] = [];
      const walked = await walk(DESK_KEY, 'limit=37', async () => {
        arrived.push(await askRefund(identities[0]!), await askRefund(bearer(DESK_KEY)));
      });
      expect(walked.ids).toHaveLength(snapshot.length);
      expect(walked.ids.toSorted()).toEqual(snapshot.toSorted());
      expect(walked.ids[0]).toBe(own);
      expect(arrived.filter((id) => walked.ids.includes(id))).toEqual([]);

      // The CLI follows: --all lists every pending request once, the key's own first (the two it asked meanwhile, newest first,
      // then the first); its table's first page leads with them and says how to get the next.
      const all = await stackbone(server.url, 'hitl', 'list', '--all', '--json', '--api-key', DESK_KEY);
      expect(all.code).toBe(0);
      const listed = (JSON.parse(all.stdout) as Page).interrupts;
      const ownNow = listed.filter((item) => item.ownSession).map((item) => item.id);
      expect(ownNow).toHaveLength(1 + walked.pages);
      expect(listed.slice(0, ownNow.length).map((item) => item.id)).toEqual(ownNow);
      expect(ownNow.at(-1)).toBe(own);
      expect(listed.map((item) => item.id).toSorted()).toEqual((await pendingInterruptIds(databaseUrl)).toSorted());
      const table = await stackbone(server.url, 'hitl', 'list', '--api-key', DESK_KEY);
      expect(table.code).toBe(0);
      expect(
        table.stdout
          .split('\n')
          .slice(1, 1 + ownNow.length)
          .map((line) => line.split(/\s+/)[0]),
      ).toEqual(ownNow);
      expect(table.stdout).toMatch(/More on the next page: stackbone hitl list --cursor \S+/);
      const mine = await stackbone(server.url, 'hitl', 'list', '--filter', 'mine', '--json', '--api-key', DESK_KEY);
      expect((JSON.parse(mine.stdout) as Page).interrupts.map((item) => item.id)).toEqual(ownNow);
    }, 300_000);

    it('refuses a page it cannot make: a limit below 1, a cursor it did not send, a filter it does not know; a browser is still 401', async () => {
      const refused = async (query: string) => {
        const response = await fetch(`${server.url}/api/hitl${query}`, { headers: bearer(DESK_KEY) });
        return [response.status, ((await response.json()) as { error: { code: string } }).error.code];
      };
      expect(await refused('?limit=0')).toEqual([400, 'invalid_request']);
      expect(await refused('?filter=everyone')).toEqual([400, 'invalid_request']);
      expect(await refused('?cursor=bm90LWEtY3Vyc29y')).toEqual([400, 'invalid_cursor']);
      expect((await fetch(`${server.url}/api/hitl`, { headers: { cookie: (await browser()).cookie } })).status).toBe(401);
    });
  });
}
