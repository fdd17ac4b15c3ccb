// The public chat under abuse (docs/security.md, "The open web"): on a keyed server with
// STACKBONE_WEB_ACCESS=open, a browser identity costs a page load, so what browsers hold is
// counted per address too. From one address, on SQLite and PostgreSQL: the 21st new identity in
// an hour, the 65th stream and the 33rd running turn across identities, a 6th paused thread of one
// identity, and an 11th wrong key in a header are each refused with their code, nothing written;
// another address — a real customer with a thread and a paused refund — is never refused. Each
// case speaks from an address of its own (X-Forwarded-For, as the nearest proxy would set it).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { countRows } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';
import { cookiesOf, firstPage } from '../support/guest';

const PORTS = { sqlite: 3353, postgres: 3354 } as const;
const KEY = 'open-web-limits-key-0123456789';
const SECRET = 'open-web-limits-secret-'.padEnd(64, 'x');

type Kind = keyof typeof PORTS;
const servers = new Map<Kind, TestServer>();

beforeAll(async () => {
  const start = async (kind: Kind, databaseUrl: string) => {
    const env = {
      STACKBONE_API_KEYS: KEY,
      STACKBONE_SECRET: SECRET,
      STACKBONE_WEB_ACCESS: 'open',
      // Replies slow enough that 33 turns are running at once.
      STACKBONE_SCRIPTED_DELAY_MS: '60',
    };
    servers.set(kind, await startServer({ port: PORTS[kind], databaseUrl, env }));
  };
  await Promise.all([
    start('sqlite', await freshSqliteUrl()),
    (async () => {
      if (await postgresReachable()) await start('postgres', await freshPostgresUrl('stackbone_open_web'));
      else console.warn('!!! PostgreSQL unreachable: open-web limits run on SQLite only');
    })(),
  ]);
}, 90_000);

afterAll(() => Promise.all([...servers.values()].map((server) => server.kill())));

let addresses = 0;
/** An address of its own for one case (TEST-NET-3), as the nearest proxy would report it. */
const newAddress = () => `203.0.113.${++addresses}`;

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe(`the open web on ${kind}`, () => {
    const server = () => {
      const found = servers.get(kind);
      if (!found) throw new Error(`no ${kind} server (PostgreSQL unreachable?)`);
      return found;
    };

    /** One page load: a new guest's cookie and owner id, or the refusal. */
    async function identity(address: string): Promise<{ status: number; cookie?: string; ownerId?: string; text: string; retryAfter: string | null }> {
      const { status, text, guest, response } = await firstPage(server().url, { 'x-forwarded-for': address });
      return { status, text, retryAfter: response.headers.get('retry-after'), ...guest };
    }
    const browserHeaders = (cookie: string, address: string) => ({ cookie, origin: server().url, 'x-forwarded-for': address });

    it('gives an address 20 new identities an hour, then 429 too_many_identities and no cookie; another address still gets one', async () => {
      const address = newAddress();
      for (let i = 0; i < 20; i++) expect((await identity(address)).ownerId).toMatch(/^browser:/);
      const refused = await identity(address);
      expect(refused.status).toBe(429);
      expect(refused.cookie).toBeUndefined();
      expect(refused.text).toContain('too_many_identities');
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await identity(newAddress())).ownerId).toMatch(/^browser:/);
    });

    it('holds 64 streams for the browsers of one address together: the 65th, from a third identity, is too_many_address_streams', async () => {
      const address = newAddress();
      const streams: AbortController[] = [];
      try {
        const owners = [];
        for (let i = 0; i < 3; i++) {
          const { cookie } = await identity(address);
          const threadId = randomUUID();
          const run = await postRun(
            server().url,
            'helpdesk',
            { threadId, runId: randomUUID(), messages: [userMessage('hello')] },
            browserHeaders(cookie!, address),
          );
          expect(run.status).toBe(200);
          owners.push({ cookie: cookie!, threadId });
        }
        const open = async (owner: { cookie: string; threadId: string }) => {
          const controller = new AbortController();
          const response = await fetch(`${server().url}/api/agents/helpdesk?threadId=${owner.threadId}&offset=-1`, {
            headers: browserHeaders(owner.cookie, address),
            signal: controller.signal,
          });
          // An open stream is held until the end; a refusal is a small JSON answer, read by the test.
          if (response.status === 200) streams.push(controller);
          return response;
        };
        const opened = await Promise.all(owners.slice(0, 2).flatMap((owner) => Array.from({ length: 32 }, () => open(owner))));
        expect(opened.map((response) => response.status)).toEqual(Array(64).fill(200));
        const refused = await open(owners[2]!);
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_address_streams');
        // One closed, one more may open: a place is given back when its stream ends.
        streams.pop()!.abort();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await open(owners[2]!)).status).toBe(200);
      } finally {
        for (const controller of streams) controller.abort();
      }
    });

    it('runs 32 turns at once for the browsers of one address: the 33rd is too_many_address_runs, and its thread is never written', async () => {
      const address = newAddress();
      const guests = [await identity(address), await identity(address)];
      const cookies = guests.map((guest) => guest.cookie!);
      const threads = Array.from({ length: 33 }, () => randomUUID());
      const results = await Promise.all(
        threads.map(async (threadId, i) => {
          const response = await fetch(`${server().url}/api/agents/helpdesk`, {
            method: 'POST',
            headers: { ...browserHeaders(cookies[i % 2]!, address), 'content-type': 'application/json', accept: 'text/event-stream' },
            body: JSON.stringify({ threadId, runId: randomUUID(), messages: [userMessage('show me markdown')] }),
          });
          const body = await response.text();
          return { threadId, status: response.status, body };
        }),
      );
      const refused = results.filter((result) => result.status === 429);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.body).toContain('too_many_address_runs');
      const owner = guests[threads.indexOf(refused[0]!.threadId) % 2]!.ownerId!;
      expect((await countRows(server().databaseUrl, refused[0]!.threadId, owner)).events).toBe(0);
      // Once they end, the address runs turns again.
      expect(
        (
          await postRun(
            server().url,
            'helpdesk',
            { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hello')] },
            browserHeaders(cookies[0]!, address),
          )
        ).status,
      ).toBe(200);
    });

    /** A guest made as an API client makes one: Better Auth's endpoint, not a page. */
    async function anonymousGuest(address: string): Promise<{ cookie: string; ownerId: string }> {
      const made = await fetch(`${server().url}/api/auth/sign-in/anonymous`, {
        method: 'POST',
        headers: { origin: server().url, 'x-forwarded-for': address, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(made.status).toBe(200);
      const cookie = cookiesOf(made);
      const { user } = (await (await fetch(`${server().url}/api/auth/get-session`, { headers: { cookie } })).json()) as { user: { ownerId: string } };
      return { cookie, ownerId: user.ownerId };
    }

    it.each([
      ['made by its first page', (address: string) => identity(address)],
      ['made at POST /api/auth/sign-in/anonymous', anonymousGuest],
    ])(
      'lets one guest (%s) wait on 5 paused threads; a 6th is too_many_paused_threads with nothing written, and withdrawing one makes room',
      async (_how, guest) => {
        const address = newAddress();
        const { cookie, ownerId } = await guest(address);
        expect(ownerId).toMatch(/^browser:/);
        const headers = browserHeaders(cookie!, address);
        const paused: { threadId: string; interruptId: string }[] = [];
        for (let i = 1; i <= 5; i++) {
          const threadId = randomUUID();
          const run = await postRun(server().url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage(`close ticket T-${i}`)] }, headers);
          const finished = run.events.at(-1) as { outcome?: { type: string; interrupts: { id: string }[] } };
          expect(finished.outcome?.type).toBe('interrupt');
          paused.push({ threadId, interruptId: finished.outcome!.interrupts[0]!.id });
        }
        const sixth = randomUUID();
        const refused = await postRun(server().url, 'helpdesk', { threadId: sixth, runId: randomUUID(), messages: [userMessage('close ticket T-6')] }, headers);
        expect(refused.events.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'too_many_paused_threads' });
        expect((await countRows(server().databaseUrl, sixth, ownerId)).events).toBe(0);
        // A paused thread itself may still be decided, and withdrawing one makes room for another.
        const withdrawn = await fetch(`${server().url}/api/agents/helpdesk/decide`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ threadId: paused[0]!.threadId, interruptId: paused[0]!.interruptId, action: 'reject' }),
        });
        expect(withdrawn.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const again = await postRun(server().url, 'helpdesk', { threadId: sixth, runId: randomUUID(), messages: [userMessage('close ticket T-6')] }, headers);
        expect((again.events.at(-1) as { outcome?: { type: string } }).outcome?.type).toBe('interrupt');
      },
    );

    it('counts wrong keys in a header per address: the 11th try, even with the right key, is too_many_sign_ins; another address is served', async () => {
      const address = newAddress();
      const get = (key: string, from = address) => fetch(`${server().url}/api/sessions`, { headers: { 'x-api-key': key, 'x-forwarded-for': from } });
      for (let i = 0; i < 10; i++) expect((await get(`wrong-key-${i}-0123456789abcdef`)).status).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const blocked = await get(KEY);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe('too_many_sign_ins');
      expect((await get(KEY, newAddress())).status).toBe(200);
    });

    it('never refuses a real customer: one thread, a paused refund, a lookup in another', async () => {
      const address = newAddress();
      const { cookie } = await identity(address);
      const headers = browserHeaders(cookie!, address);
      const refund = await postRun(
        server().url,
        'helpdesk',
        { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('refund order po_42 for 9.99')] },
        headers,
      );
      expect((refund.events.at(-1) as { outcome?: { type: string } }).outcome?.type).toBe('interrupt');
      const lookup = await postRun(
        server().url,
        'helpdesk',
        { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('look up order po_42')] },
        headers,
      );
      expect(lookup.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED' });
    });
  });
}
