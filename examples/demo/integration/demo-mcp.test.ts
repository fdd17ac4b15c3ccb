// The demo MCP server on a keyed server (docs/mcp.md, "The demo server"; docs/security.md; the
// review's F6 and its suspicions): /api/demo/mcp answers a stranger 401, as /api/mcp does — no key,
// a browser's own cookie, a made-up demo credential — while the MCP demo agent, which presents the
// demo's own credential, still lists, calls and asks through it. A note longer than 500 characters
// is refused; a session keeps at most 20 notes and its own; strangers opening sessions by the
// dozen close only strangers' (the agent's pool is apart). On SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import type { RunFinishedEvent } from '@ag-ui/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MCP_CREDENTIAL_HEADER, deriveDemoMcpCredential } from '../mcp/credential';
import type { SessionEvent } from '../../../server/store/events';
import { postRun, userMessage } from '../../../tests/support/agui';
import { backends } from '../../../tests/support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../../../tests/support/database';
import { newGuest } from '../../../tests/support/guest';
import { eventually, readSessionEvents } from '../../../tests/support/inspect';
import { startServer, type TestServer } from '../../../tests/support/server';

const PORTS = { sqlite: 3393, postgres: 3394 } as const;
/** 32 bytes or more, as a keyed server requires (docs/security.md, "Modes"). */
const SECRET = 'demo-mcp-secret-0123456789abcdef0123456';
const KEY = 'demo-mcp-key-0123456789abcdef';
const bearer = { authorization: `Bearer ${KEY}` };
/** What the demo agent presents (examples/demo/mcp/credential.ts): the test knows the server's secret. */
const agentCredential = { [DEMO_MCP_CREDENTIAL_HEADER]: deriveDemoMcpCredential(SECRET) };

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stranger', version: '1' } },
};

for (const { kind } of backends()) {
  describe(`the demo MCP server on a keyed server, on ${kind}`, () => {
    let server: TestServer;
    let databaseUrl: string;
    const clients: Client[] = [];

    beforeAll(async () => {
      databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_demo_mcp');
      // No ledger file: the notes live where a deployment keeps them, in the session's notebook.
      server = await startServer({
        port: PORTS[kind],
        databaseUrl,
        env: { STACKBONE_LEASE_MS: '20000', STACKBONE_API_KEYS: KEY, STACKBONE_SECRET: SECRET, STACKBONE_WEB_ACCESS: 'open' },
      });
    });
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await server?.kill();
    });

    /** The official client on /api/demo/mcp with these headers. */
    async function connect(headers: Record<string, string>): Promise<Client> {
      const client = new Client({ name: 'demo-mcp-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/demo/mcp`), { requestInit: { headers } }));
      clients.push(client);
      return client;
    }

    const note = async (client: Client, key: string, idempotencyKey: string) => {
      const result = (await client.callTool({
        name: 'record_note',
        arguments: { key },
        _meta: { 'io.stackbone/idempotency-key': idempotencyKey },
      })) as CallToolResult;
      return { text: result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''), isError: result.isError === true };
    };

    /** One turn of the MCP demo agent, as the key holder; its outcome, and the thread. */
    async function turn(text: string) {
      const threadId = randomUUID();
      const run = await postRun(server.url, 'mcp-demo', { threadId, runId: randomUUID(), messages: [userMessage(text)] }, bearer);
      return { threadId, outcome: (run.events.at(-1) as RunFinishedEvent).outcome };
    }

    const toolResult = (threadId: string, toolName: string) =>
      eventually(async () => {
        const events = await readSessionEvents(databaseUrl, threadId);
        const result = events.find(
          (event): event is Extract<SessionEvent, { type: 'tool_result' }> => event.type === 'tool_result' && event.message.toolName === toolName,
        );
        return result && String(result.message.content);
      });

    async function decideOnly(threadId: string, body: object) {
      const { interrupts } = (await (await fetch(`${server.url}/api/hitl?filter=mine`, { headers: bearer })).json()) as {
        interrupts: { id: string; sessionId: string }[];
      };
      const pending = interrupts.filter((interrupt) => interrupt.sessionId === threadId);
      expect(pending).toHaveLength(1);
      const response = await fetch(`${server.url}/api/hitl/${pending[0]!.id}/approve`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
    }

    it('answers a stranger 401 — no credential, a guest of the public chat, a made-up demo credential — and an API key holder 200', async () => {
      const post = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/demo/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(INITIALIZE),
        });
      const { cookie } = await newGuest(server.url);
      const strangers: Record<string, Record<string, string>> = {
        nobody: {},
        'a public-chat guest': { cookie, origin: server.url },
        'a made-up demo credential': { [DEMO_MCP_CREDENTIAL_HEADER]: deriveDemoMcpCredential('another-secret-0123456789abcdef0123') },
        'a wrong key': { authorization: 'Bearer not-a-key' },
      };
      for (const [who, headers] of Object.entries(strangers)) {
        const response = await post(headers);
        expect(response.status, who).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code, who).toBe('unauthorized');
      }
      expect((await fetch(`${server.url}/api/demo/mcp`)).status).toBe(401);
      const keyed = await connect(bearer);
      expect((await keyed.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        'connect_calendar',
        'record_note',
        'schedule_review',
        'search_docs',
        'word_count',
      ]);
    });

    it("the MCP demo agent's own connection still works: a free tool, a gated note once approved, a question answered", async () => {
      const search = await turn('call demo_search_docs {"topic": "refunds"}');
      expect(search.outcome).toMatchObject({ type: 'success' });
      expect(await toolResult(search.threadId, 'demo_search_docs')).toContain('Refunds go back to the original payment method');

      const gated = await turn('call demo_record_note {"key": "launch on Friday"}');
      expect(gated.outcome).toMatchObject({ type: 'interrupt' });
      await decideOnly(gated.threadId, {});
      expect(await toolResult(gated.threadId, 'demo_record_note')).toBe('Recorded "launch on Friday".');

      const asked = await turn('call demo_schedule_review {"topic": "the launch"}');
      expect(asked.outcome).toMatchObject({ type: 'interrupt' });
      await decideOnly(asked.threadId, { payload: { day: 'Tuesday' } });
      expect(await toolResult(asked.threadId, 'demo_schedule_review')).toBe('Review of the launch scheduled for Tuesday.');
    });

    it('refuses a note over 500 characters; a session keeps 20 notes, its own: another session does not see them', async () => {
      const client = await connect(bearer);
      expect(await note(client, 'x'.repeat(501), 'too-long')).toMatchObject({ isError: true, text: expect.stringContaining('Input validation error') });
      expect(await note(client, 'y'.repeat(500), 'longest')).toEqual({ isError: false, text: `Recorded "${'y'.repeat(500)}".` });
      expect(await note(client, 'y', 'k'.repeat(201))).toMatchObject({ isError: true, text: expect.stringContaining('idempotency key of 1 to 200') });
      for (let i = 1; i < 20; i++) expect(await note(client, `note ${i}`, `key-${i}`), `note ${i}`).toEqual({ isError: false, text: `Recorded "note ${i}".` });
      expect(await note(client, 'one more', 'key-20')).toEqual({
        isError: true,
        text: 'The notebook of this session is full (20 notes): start a new session.',
      });
      expect(await note(client, 'note 1 again', 'key-1')).toEqual({ isError: false, text: '"note 1 again" was already recorded by this call.' });
      // A note is its session's: another caller's session cannot claim a key first, nor find it taken.
      const other = await connect(bearer);
      expect(await note(other, 'note 1', 'key-1')).toEqual({ isError: false, text: 'Recorded "note 1".' });
    });

    it('a 2025-era client is asked the questions of tools written the 2026-07-28 way, during the call, and its answer goes back', async () => {
      const client = new Client({ name: 'demo-mcp-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {}, url: {} } } });
      const asked: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, ({ params }) => {
        asked.push(params.message);
        return params.mode === 'url' ? { action: 'decline' } : { action: 'accept', content: { day: 'Tuesday', note: 'bring the numbers' } };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/demo/mcp`), { requestInit: { headers: bearer } }));
      clients.push(client);
      const text = (result: unknown) => (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(text(await client.callTool({ name: 'schedule_review', arguments: { topic: 'the launch' } }))).toBe(
        'Review of the launch scheduled for Tuesday (note: bring the numbers).',
      );
      expect(text(await client.callTool({ name: 'connect_calendar', arguments: {} }))).toBe('The calendar is not connected: the person chose decline.');
      expect(asked).toEqual(['Which day should the review of the launch be?', 'Open the link to allow access to the team calendar.']);
    });

    it("strangers' sessions by the dozen close only strangers' (the oldest first); the agent's session stays, and answers only the agent", async () => {
      const agentSession = await connect(agentCredential);
      const firstStranger = await connect(bearer);
      for (let i = 0; i < 60; i++) await connect(bearer);
      await expect(firstStranger.callTool({ name: 'word_count', arguments: { text: 'a b c' } })).rejects.toThrow(/Session not found|404/);
      const counted = (await agentSession.callTool({ name: 'word_count', arguments: { text: 'a b c' } })) as CallToolResult;
      expect(counted.structuredContent).toEqual({ words: 3 });
      // The agent's session id with a key holder's credential is as unknown as a closed one.
      const transport = agentSession.transport as StreamableHTTPClientTransport;
      const borrowed = await fetch(`${server.url}/api/demo/mcp`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId! },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(borrowed.status).toBe(404);
      // And the agent goes on working through the flood.
      const search = await turn('call demo_search_docs {"topic": "shipping"}');
      expect(await toolResult(search.threadId, 'demo_search_docs')).toContain('Orders ship within 2 business days');
    });
  });
}
