// Open dev mode (no STACKBONE_API_KEYS) is for one person's own machine (docs/security.md,
// "Modes"): a production server without keys does not start unless STACKBONE_ALLOW_OPEN_ACCESS=1
// says so, and a development server answers only requests addressed to a loopback host — not
// the machine's address on a network, not a DNS-rebinding page's name.
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userMessage } from '../support/agui';
import { freshSqliteUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';

/** A request with the Host header a client chose (fetch always sends the URL's own). */
function withHost(server: TestServer, host: string, pathname: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: server.port, path: pathname, method: init.method ?? 'GET', headers: { ...init.headers, host } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

describe('a production server without keys', () => {
  it('does not start without STACKBONE_ALLOW_OPEN_ACCESS=1, and says what to set', async () => {
    const databaseUrl = await freshSqliteUrl();
    let refusal: unknown;
    try {
      const started = await startServer({ port: 3261, databaseUrl, env: { STACKBONE_API_KEYS: '', STACKBONE_ALLOW_OPEN_ACCESS: '' } });
      await started.kill();
    } catch (error) {
      refusal = error;
    }
    expect(String(refusal)).toMatch(/exited early.*STACKBONE_API_KEYS.*STACKBONE_ALLOW_OPEN_ACCESS=1/s);
  });
});

describe('a development server in open dev mode (next dev, no keys, no opt-in)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      port: 3262,
      databaseUrl: await freshSqliteUrl(),
      dev: true,
      env: { STACKBONE_API_KEYS: '', STACKBONE_ALLOW_OPEN_ACCESS: '' },
    });
  }, 120_000);
  afterAll(() => server?.kill());

  const run = () => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      threadId: randomUUID(),
      runId: randomUUID(),
      messages: [userMessage('reply with 2 tokens')],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });

  it('answers requests addressed to a loopback host', async () => {
    for (const host of ['localhost:3000', 'localhost', 'app.localhost:3000', `127.0.0.1:${server.port}`, '127.8.9.10', '[::1]:3000']) {
      expect((await withHost(server, host, '/api/hitl')).status, host).toBe(200);
    }
    expect((await withHost(server, 'localhost:3000', '/')).status).toBe(200);
    // What `npm run dev` printed while rendering the home page: no React warning (a tool schema
    // with hidden members once drew "Only plain objects can be passed to Client Components" per tool).
    expect(server.output()).not.toMatch(/Only plain objects|Warning:/);
    expect((await withHost(server, 'localhost:3000', '/api/agents/helpdesk', run())).status).toBe(200);
  }, 120_000);

  it("refuses the machine's network address and a rebinding name with 403 open_dev_mode_remote, on pages and APIs, and writes nothing", async () => {
    for (const host of ['192.168.1.5:3000', 'evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.1.evil.example']) {
      for (const [pathname, init] of [
        ['/api/hitl', {}],
        ['/api/sessions', {}],
        ['/api/agents/helpdesk', run()],
        ['/api/studio/stream', {}],
      ] as const) {
        const refused = await withHost(server, host, pathname, init);
        expect(refused.status, `${host} ${pathname}`).toBe(403);
        expect(JSON.parse(refused.body).error, `${host} ${pathname}`).toMatchObject({
          code: 'open_dev_mode_remote',
          message: expect.stringContaining('STACKBONE_API_KEYS'),
        });
      }
      const page = await withHost(server, host, '/');
      expect(page.status, host).toBe(403);
      expect(page.body).toContain('open_dev_mode_remote');
      // Health still answers (a load balancer's probe), with nothing but {ok}.
      const health = await withHost(server, host, '/api/health');
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ ok: true });
    }
    const sessions = await withHost(server, 'localhost:3000', '/api/sessions');
    expect(JSON.parse(sessions.body).sessions).toHaveLength(1); // only the loopback run above
  }, 120_000);
});
