// Slow clients (docs/security.md, "Slow clients"): the server `npm start` runs cuts a client that
// trickles its headers after STACKBONE_HEADERS_TIMEOUT_MS and one that trickles its body — a
// stalled upload holding memory — after STACKBONE_REQUEST_TIMEOUT_MS, while a live stream that is
// read goes on past both. Short timeouts here, the defaults (20 s, 120 s) in the docs.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSqliteUrl } from '../support/database';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    port: 3356,
    databaseUrl: await freshSqliteUrl(),
    env: { STACKBONE_HEADERS_TIMEOUT_MS: '1000', STACKBONE_REQUEST_TIMEOUT_MS: '2000', STACKBONE_SCRIPTED_DELAY_MS: '200' },
  });
}, 60_000);

afterAll(() => server?.kill());

/** Opens a socket, writes `first`, then a byte every 300 ms; answers how long until the server closed it, and what it said. */
function trickle(first: string): Promise<{ closedAfterMs: number; answer: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(first));
    const drip = setInterval(() => socket.writable && socket.write('a'), 300);
    const giveUp = setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`the server kept the trickling client for 10 s: ${answer}`));
    }, 10_000);
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
    socket.on('error', () => {});
  });
}

describe('slow clients', () => {
  it('cuts a client that trickles its headers', async () => {
    const { closedAfterMs, answer } = await trickle('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(closedAfterMs).toBeLessThan(4_000);
    expect(answer).toMatch(/^$|408/);
  });

  it('cuts a client that trickles its body (a stalled upload)', async () => {
    const head = `POST /api/agents/helpdesk/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\nContent-Length: 9000000\r\n\r\n%PDF-`;
    const { closedAfterMs, answer } = await trickle(head);
    expect(closedAfterMs).toBeLessThan(5_000);
    expect(answer).toMatch(/^$|408/);
  });

  it('keeps a live stream that is read open past both', async () => {
    const threadId = randomUUID();
    const response = await fetch(`${server.url}/api/agents/helpdesk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ threadId, runId: randomUUID(), messages: [{ id: randomUUID(), role: 'user', content: 'show me markdown' }] }),
    });
    const started = Date.now();
    const text = await response.text();
    expect(Date.now() - started).toBeGreaterThan(2_500);
    expect(text).toContain('RUN_FINISHED');
  });
});
