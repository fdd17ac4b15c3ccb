// Our agents as an MCP server (docs/mcp.md, "MCP out"), driven by the official MCP client
// (@modelcontextprotocol/sdk) against real servers on SQLite and PostgreSQL: a gated call is
// asked of the client's human by elicitation, or — for a client without it — waits in the inbox
// with a link, and either way is decided once.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequestParams, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../support/backends';
import { freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startServer, type TestServer } from '../support/server';

interface AskOutcome {
  session: string;
  status: 'done' | 'waiting' | 'failed';
  waiting: { id: string; message: string; studio: string; approve: string }[];
}

/**
 * The official client on /api/mcp; with `answer`, it declares elicitation (form mode unless told URL
 * mode) and answers each request with it. `standaloneStream: false`: it never opens the session's
 * GET stream (optional in the protocol; a server without one answers 405, as here).
 */
async function connect(
  url: string,
  options: { answer?: (params: ElicitRequestParams) => ElicitResult; mode?: 'form' | 'url'; apiKey?: string; standaloneStream?: false } = {},
) {
  const elicitation = options.mode === 'url' ? { url: {} } : { form: {} };
  const client = new Client({ name: 'mcp-out-test', version: '1.0.0' }, { capabilities: options.answer ? { elicitation } : {} });
  const asked: ElicitRequestParams[] = [];
  if (options.answer) {
    const answer = options.answer;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
  }
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const noStandaloneStream: typeof fetch = async (input, init) => (init?.method === 'GET' ? new Response(null, { status: 405 }) : fetch(input, init));
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers },
    ...(options.standaloneStream === false ? { fetch: noStandaloneStream } : {}),
  });
  await client.connect(transport);
  const ask = async (message: string, session?: string, tool = 'ask_helpdesk') => {
    const result = (await client.callTool({ name: tool, arguments: { message, ...(session ? { session } : {}) } })) as CallToolResult;
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    return { ...(result.structuredContent as unknown as AskOutcome), text, isError: result.isError };
  };
  return { client, asked, ask, transport };
}

/** How often the session's refund ran: tool_started and tool_result events of refundPayment. */
async function refundRuns(databaseUrl: string, session: string) {
  const events = await readSessionEvents(databaseUrl, session);
  const started = events.filter((event) => event.type === 'tool_started' && event.toolName === 'refundPayment').length;
  const results = events.filter((event) => event.type === 'tool_result' && event.message.toolName === 'refundPayment' && !event.status).length;
  return { started, results };
}

for (const server of backends()) {
  describe(`MCP server on ${server.kind}`, () => {
    it('lists ask_<agent> tools; a refund asked in the client is approved with an edit and runs once; a rejection reaches the model; a question is answered in a form', async () => {
      let decision: Record<string, string | number> = { decision: 'approve', amount: 15, note: 'goodwill' };
      const { client, asked, ask } = await connect(server.url, { answer: () => ({ action: 'accept', content: decision }) });
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name);
        expect(tools).toEqual(expect.arrayContaining(['ask_helpdesk', 'ask_taskboard', 'ask_librarian']));

        const refund = await ask('refund order po_42 for 19.99');
        // The client's human saw the call with its arguments to edit, its note, and a reason.
        expect(asked).toHaveLength(1);
        expect(asked[0]!.message).toBe('helpdesk asks for your approval: Refund $19.99 on order po_42');
        const fields = (asked[0] as { requestedSchema: { properties: Record<string, { default?: unknown }> } }).requestedSchema.properties;
        expect(Object.keys(fields)).toEqual(['decision', 'orderId', 'amount', 'note', 'reason']);
        expect(fields.amount!.default).toBe(19.99);
        expect(refund).toMatchObject({ status: 'done', waiting: [], isError: undefined });
        expect(refund.session).toMatch(/^mcp-/);
        expect(refund.text).toMatch(/Refunded \$15\.00 on order po_42 \(refund re_[\w-]+\)\. Note: goodwill/);
        expect(await refundRuns(server.databaseUrl, refund.session)).toEqual({ started: 1, results: 1 });
        const decided = (await readSessionEvents(server.databaseUrl, refund.session)).filter((event) => event.type === 'interrupt_decided');
        expect(decided).toMatchObject([{ decision: { status: 'approved', editedArgs: { orderId: 'po_42', amount: 15 }, by: { source: 'mcp' } } }]);

        decision = { decision: 'reject', reason: 'not yet' };
        const closing = await ask('close ticket T-7', refund.session);
        expect(asked).toHaveLength(2);
        expect(closing).toMatchObject({ status: 'done', session: refund.session });
        expect(closing.text).toMatch(/: you declined it \(“not yet”\)/);

        // A question (requestInput) is asked with its own schema; the answer reaches the tool.
        decision = { answer: 'Friday' };
        const question = await ask('ask me about the launch date', undefined, 'ask_taskboard');
        expect(asked[2]).toMatchObject({
          message: 'What can you tell me about the launch date?',
          requestedSchema: { properties: { answer: { type: 'string' } }, required: ['answer'] },
        });
        expect(question).toMatchObject({ status: 'done' });
        expect(question.text).toContain('You answered “Friday” to “What can you tell me about the launch date?”.');
      } finally {
        await client.close();
      }
    });

    it('a client without elicitation gets the decision with a link; it waits in /api/hitl, and once decided there the next ask goes on', async () => {
      const { client, asked, ask } = await connect(server.url);
      try {
        const paused = await ask('refund order po_42 for 5');
        expect(asked).toHaveLength(0);
        expect(paused.status).toBe('waiting');
        expect(paused.waiting).toEqual([
          {
            id: expect.stringMatching(/^int_/),
            message: 'Refund $5.00 on order po_42',
            studio: `${server.url}/studio?decision=${paused.waiting[0]!.id}`,
            approve: `${server.url}/api/hitl/${paused.waiting[0]!.id}/approve`,
          },
        ]);
        expect(paused.text).toContain(`decide it in Studio at ${server.url}/studio?decision=${paused.waiting[0]!.id}`);
        const inbox = (await (await fetch(`${server.url}/api/hitl`)).json()) as { interrupts: { id: string; sessionId: string }[] };
        expect(inbox.interrupts).toContainEqual(expect.objectContaining({ id: paused.waiting[0]!.id, sessionId: paused.session }));

        // Asking again while it waits sends nothing and names the same decision.
        const again = await ask('any news?', paused.session);
        expect(again).toMatchObject({ status: 'waiting', waiting: paused.waiting });
        expect(again.text).toContain('Your message was not sent');
        expect(await refundRuns(server.databaseUrl, paused.session)).toEqual({ started: 0, results: 0 });

        const approve = () => fetch(paused.waiting[0]!.approve, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        expect((await approve()).status).toBe(200);
        expect((await approve()).status).toBe(409); // interrupt_already_decided: exactly once
        // The continuation ran on the server; the session resource shows its reply.
        const uri = `stackbone://sessions/${encodeURIComponent(paused.session)}`;
        await eventually(async () => JSON.stringify(await client.readResource({ uri })).includes('Refunded $5.00 on order po_42'), 15_000, 'the refund');
        const next = await ask('look up order po_42', paused.session);
        expect(next).toMatchObject({ status: 'done', waiting: [] });
        expect(next.text).toMatch(/Order po_42/);
        expect(await refundRuns(server.databaseUrl, paused.session)).toEqual({ started: 1, results: 1 });
      } finally {
        await client.close();
      }
    });

    it('a client with URL-mode elicitation and no standalone stream is shown the Studio link during the call, and the call waits until the decision is made there', async () => {
      const approvals: Promise<Response>[] = [];
      const { client, asked, ask } = await connect(server.url, {
        mode: 'url',
        // Asked on the call's own stream: a client that opens no other is asked all the same.
        standaloneStream: false,
        answer: (params) => {
          // The person follows the link and approves there (here: the out-of-band API Studio uses).
          const id = (params as { elicitationId: string }).elicitationId;
          approvals.push(fetch(`${server.url}/api/hitl/${id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
          return { action: 'accept' };
        },
      });
      try {
        const refund = await ask('refund order po_42 for 7');
        expect(asked).toEqual([
          {
            mode: 'url',
            message: 'Decide in Studio: Refund $7.00 on order po_42',
            url: expect.stringMatching(new RegExp(`^${server.url}/studio\\?decision=int_`)),
            elicitationId: expect.stringMatching(/^int_/),
          },
        ]);
        expect((await Promise.all(approvals)).map((response) => response.status)).toEqual([200]);
        expect(refund).toMatchObject({ status: 'done', waiting: [] });
        expect(refund.text).toMatch(/Refunded \$7\.00 on order po_42/);
        expect(await refundRuns(server.databaseUrl, refund.session)).toEqual({ started: 1, results: 1 });
      } finally {
        await client.close();
      }
    });
  });
}

describe('MCP server with STACKBONE_API_KEYS', () => {
  let keyed: TestServer;
  beforeAll(async () => {
    keyed = await startServer({
      port: 3225,
      databaseUrl: await freshSqliteUrl(),
      env: { STACKBONE_API_KEYS: 'key-one-0123456789abcdef, key-two-0123456789abcdef', STACKBONE_SECRET: 'test-secret-0123456789abcdef0123456789' },
    });
  });
  afterAll(async () => {
    await keyed?.kill();
  });

  it('refuses a client without a key, and one key cannot use another key’s MCP session', async () => {
    await expect(connect(keyed.url)).rejects.toThrow();
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const noKey = await fetch(`${keyed.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(noKey.status).toBe(401);
    // The app's body rules hold here as on every API (docs/security.md, "What a request may carry").
    const notJson = await fetch(`${keyed.url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-api-key': 'key-one-0123456789abcdef' },
      body: JSON.stringify(initialize),
    });
    expect(notJson.status).toBe(415);

    const { client, transport } = await connect(keyed.url, { apiKey: 'key-one-0123456789abcdef' });
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ask_helpdesk');
      const foreign = await fetch(`${keyed.url}/api/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': 'key-two-0123456789abcdef',
          'mcp-session-id': transport.sessionId!,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(foreign.status).toBe(404);
    } finally {
      await client.close();
    }
  });
});
