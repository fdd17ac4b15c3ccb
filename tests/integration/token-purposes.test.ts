// A token signed for one purpose is nothing as another (docs/security.md, "Signed tokens"), on a
// keyed server with STACKBONE_WEB_ACCESS=open per database kind: a one-click approval link sent
// as the `stackbone_id` cookie is no identity — the session list answers it as it answers a
// forged cookie, and a page gives the browser a fresh identity, nothing derived from the link —
// whether the link was signed as now or the way links were before purpose labels; and claims
// signed as an identity open no link's page.
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { argumentsHash, linkExpiry, signLink } from '../../server/runtime';
import { UNLABELLED_SIGNATURES_UNTIL } from '../../server/credentials/signature';
import { freshPostgresUrl, freshSqliteUrl, postgresReachable } from '../support/database';
import { startServer, type TestServer } from '../support/server';
import { firstPage, newGuest } from '../support/guest';

const SECRET = 'purposes-test-secret-'.padEnd(64, 'x');
const PORTS = { sqlite: 3371, postgres: 3372 } as const;
type Kind = keyof typeof PORTS;

const servers = new Map<Kind, TestServer>();
const postgres = await postgresReachable();

beforeAll(async () => {
  // The test process signs links as the servers do.
  vi.stubEnv('STACKBONE_SECRET', SECRET);
  const start = async (kind: Kind, databaseUrl: Promise<string>) => {
    const env = { STACKBONE_API_KEYS: 'purposes-key-0123456789abc', STACKBONE_SECRET: SECRET, STACKBONE_WEB_ACCESS: 'open' };
    servers.set(kind, await startServer({ port: PORTS[kind], databaseUrl: await databaseUrl, env }));
  };
  await Promise.all([start('sqlite', freshSqliteUrl()), ...(postgres ? [start('postgres', freshPostgresUrl('stackbone_purposes'))] : [])]);
}, 60_000);
afterAll(async () => {
  // The next file in this worker starts its servers with this process's environment (vitest.config.ts).
  vi.unstubAllEnvs();
  await Promise.all([...servers.values()].map((server) => server.kill()));
});

const hmac = (input: string) => createHmac('sha256', SECRET).update(input).digest('base64url');
/** An approve link's token as notifications mint it now. */
const linkToken = () =>
  signLink({
    interruptId: `int_${randomUUID()}`,
    action: 'approve',
    argsHash: argumentsHash({ orderId: 'po_42' }),
    expiresAt: linkExpiry(undefined),
    recipient: 'slack',
  });
/** The same claims signed as links were before purpose labels: they still open their page until the migration window ends. */
const unlabelledLinkToken = () => {
  const payload = linkToken().split('.')[0]!;
  return `${payload}.${hmac(payload)}`;
};

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe.skipIf(kind === 'postgres' && !postgres)(`signed tokens on ${kind}`, () => {
    const server = () => servers.get(kind)!;
    const sessions = (cookie?: string) => fetch(`${server().url}/api/sessions`, { headers: cookie ? { cookie } : {} });

    it('a link token as the identity cookie is answered as a forged cookie is, and no page turns it into an identity', async () => {
      // A guest's cookie is a caller (so the refusals below are about the token, not the route).
      const issued = (await newGuest(server().url)).cookie;
      expect((await sessions(issued)).status).toBe(200);
      const none = await sessions();
      const forged = await sessions(`stackbone_id=${randomUUID()}.${Math.floor(Date.now() / 1000)}.${hmac('forged')}`);
      expect(none.status).toBe(401);
      expect(forged.status).toBe(401);
      const forgedBody = await forged.json();

      for (const [name, token, verifies] of [
        ['a link token', linkToken(), true],
        ['a link token signed before purpose labels', unlabelledLinkToken(), Date.now() < UNLABELLED_SIGNATURES_UNTIL.getTime()],
      ] as const) {
        // The link itself is good (an old one until the migration window ends): its page opens — for an
        // interrupt nobody has, a page saying so — and is 403 only for a token that does not verify.
        expect((await fetch(`${server().url}/approve/${token}`)).status === 403, name).toBe(!verifies);
        const answer = await sessions(`stackbone_id=${token}`);
        expect(answer.status, name).toBe(401);
        expect(await answer.json(), name).toEqual(forgedBody);
        // A page makes a new guest, whose owner id owes nothing to the link's payload.
        const page = await firstPage(server().url, { cookie: `stackbone_id=${token}` });
        expect(page.status, name).toBe(200);
        expect(page.guest?.ownerId, name).toMatch(/^browser:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(page.guest?.ownerId, name).not.toContain(token.split('.')[0]!.slice(0, 16));
      }
    });

    it("a link's claims signed as an identity are no link: its page is 403", async () => {
      const payload = linkToken().split('.')[0]!;
      const asIdentity = `${payload}.${hmac(`stackbone identity v1\n${payload}`)}`;
      expect((await fetch(`${server().url}/approve/${asIdentity}`)).status).toBe(403);
      const decided = await fetch(`${server().url}/api/links/decide`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server().url },
        body: new URLSearchParams({ token: asIdentity }),
      });
      expect(decided.status).toBe(403);
    });
  });
}
