// Our agents as an MCP server at protocol revision 2026-07-28 (docs/mcp.md, "Two eras"), driven by
// the official v2 client pinned to that revision, on SQLite and PostgreSQL. No MCP session: a gated
// call answers `input_required` with a sealed requestState, and the retry — on whichever instance
// takes it, after a restart, or after the decision was made elsewhere — decides the durable
// interrupt through the one decision path and returns the turn's result. On PostgreSQL two server
// processes sit behind a balancer without stickiness; SQLite has one (a second process does not
// start on its file). The 2025-era client is tests/integration/mcp-out.test.ts's.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  Client,
  isInputRequiredResult,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ElicitRequestParams,
  type ElicitResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { readSessionEvents } from '../support/inspect';
import { startRoundRobin, type RoundRobin } from '../support/round-robin';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: [3421], postgres: [3423, 3424] } as const;
const SECRET = 'test-secret-mcp-rounds-0123456789abcdef';
const KEYS = { one: 'sk-mcp-one-0123456789abcdef', two: 'sk-mcp-two-0123456789abcdef' };
type Kind = keyof typeof PORTS;

interface Setup {
  servers: TestServer[];
  balancer: RoundRobin;
  ledgerFile: string;
  databaseUrl: string;
  env: Record<string, string>;
}
const setups = new Map<Kind, Setup>();

beforeAll(async () => {
  await Promise.all(
    (Object.keys(PORTS) as Kind[]).map(async (kind) => {
      const ledgerFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'stackbone-mcp-rounds-')), 'ledger.jsonl');
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_mcp_rounds');
      const env = { ...fixtureEnv(ledgerFile), STACKBONE_API_KEYS: `${KEYS.one},${KEYS.two}`, STACKBONE_SECRET: SECRET };
      const servers = await Promise.all(PORTS[kind].map((port) => startServer({ port, databaseUrl, env })));
      const balancer = await startRoundRobin(servers.map((server) => server.url));
      setups.set(kind, { servers, balancer, ledgerFile, databaseUrl, env });
    }),
  );
}, 120_000);

afterAll(async () => {
  for (const { servers, balancer } of setups.values()) {
    await balancer.close();
    await Promise.all(servers.map((server) => server.kill()));
  }
});

/** The official v2 client pinned to 2026-07-28, through the balancer; each request noted with the instance that served it. */
async function modernClient(
  url: string,
  key: string,
  options: { answer?: (params: ElicitRequestParams) => ElicitResult; manual?: boolean; mode?: 'form' | 'url' } = {},
) {
  const client = new Client(
    { name: 'mcp-rounds-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: options.mode === 'url' ? { url: {} } : { form: {} } },
      ...(options.manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  const asked: ElicitRequestParams[] = [];
  const answer = options.answer;
  if (answer) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
  }
  const served: { method?: string; instance: string | null }[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const method = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }).method : undefined;
      served.push({ method, instance: response.headers.get('x-instance') });
      return response;
    },
  });
  await client.connect(transport);
  /** One round by hand (manual mode): the result, or the input_required the server answered. */
  const round = (message: string, retry?: { inputResponses: Record<string, ElicitResult>; requestState?: string }) =>
    client.request({ method: 'tools/call', params: { name: 'ask_helpdesk', arguments: { message }, ...retry } }, { allowInputRequired: true }) as Promise<
      CallToolResult | InputRequiredResult
    >;
  return { client, asked, served, round };
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const sessionOf = (result: CallToolResult) => (result.structuredContent as { session: string }).session;

/** The first round's question: its interrupt id (the key of its one input request) and the requestState to echo. */
function question(result: CallToolResult | InputRequiredResult) {
  if (!isInputRequiredResult(result)) throw new Error(`expected input_required, got ${JSON.stringify(result)}`);
  const [id, ...others] = Object.keys(result.inputRequests ?? {});
  expect(others).toEqual([]);
  return { id: id!, request: result.inputRequests![id!]!, requestState: result.requestState! };
}

function done(result: CallToolResult | InputRequiredResult): CallToolResult {
  if (isInputRequiredResult(result)) throw new Error(`expected a result, got input_required ${JSON.stringify(result)}`);
  return result;
}

for (const kind of Object.keys(PORTS) as Kind[]) {
  describe(`MCP 2026-07-28 on ${kind}`, () => {
    const setup = () => setups.get(kind)!;
    /** How often the session's refund ran (its tool events) and how often its side effect was made (the ledger). */
    const refunds = async (session: string, amount: string) => {
      const events = await readSessionEvents(setup().databaseUrl, session);
      return {
        started: events.filter((event) => event.type === 'tool_started' && event.toolName === 'refundPayment').length,
        effects: readLedger(setup().ledgerFile).filter((line) => line.kind === 'effect' && line.key === `refund po_42 ${amount}`).length,
      };
    };
    const decisions = async (session: string) => (await readSessionEvents(setup().databaseUrl, session)).filter((event) => event.type === 'interrupt_decided');

    it('a pinned client lists our agents and completes an approved refund once, its two rounds served by different instances', async () => {
      const { client, asked, served } = await modernClient(setup().balancer.url, KEYS.one, {
        answer: () => ({ action: 'accept', content: { decision: 'approve', note: 'goodwill' } }),
      });
      try {
        expect(client.getProtocolEra()).toBe('modern');
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['ask_helpdesk', 'ask_taskboard']));
        const result = await client.callTool({ name: 'ask_helpdesk', arguments: { message: 'refund order po_42 for 19.99' } });
        // The client's human saw the approval form, with the refund's note field.
        expect(asked).toHaveLength(1);
        expect(asked[0]!.message).toBe('helpdesk asks for your approval: Refund $19.99 on order po_42');
        expect(Object.keys((asked[0] as { requestedSchema: { properties: object } }).requestedSchema.properties)).toEqual([
          'decision',
          'orderId',
          'amount',
          'note',
          'reason',
        ]);
        expect(result.isError).toBeFalsy();
        expect(textOf(result)).toMatch(/Refunded \$19\.99 on order po_42 \(refund re_[\w-]+\)\. Note: goodwill/);
        const session = sessionOf(result);
        expect(await refunds(session, '19.99')).toEqual({ started: 1, effects: 1 });
        expect(await decisions(session)).toMatchObject([{ decision: { status: 'approved', by: { source: 'mcp' } } }]);
        // The session is a resource on any instance too.
        const read = await client.readResource({ uri: `stackbone://sessions/${encodeURIComponent(session)}` });
        expect(JSON.stringify(read.contents)).toContain('Refunded $19.99 on order po_42');
        const calls = served.filter((entry) => entry.method === 'tools/call');
        expect(calls).toHaveLength(2);
        if (kind === 'postgres') expect(calls[0]!.instance).not.toBe(calls[1]!.instance);
      } finally {
        await client.close();
      }
    });

    it('the retry after every server process was killed and started again decides the refund, once', async () => {
      const { client, round } = await modernClient(setup().balancer.url, KEYS.one, { manual: true });
      try {
        const first = question(await round('refund order po_42 for 11'));
        expect(first.id).toMatch(/^int_/);
        expect(first.request).toMatchObject({
          method: 'elicitation/create',
          params: { message: 'helpdesk asks for your approval: Refund $11.00 on order po_42' },
        });
        // SIGKILL: nothing of the first round is left in any process.
        const { servers, env, databaseUrl } = setup();
        await Promise.all(servers.map((server) => server.kill('SIGKILL')));
        setup().servers = await Promise.all(servers.map((server) => startServer({ port: server.port, databaseUrl, env, slot: 1 })));
        const result = done(
          await round('refund order po_42 for 11', {
            inputResponses: { [first.id]: { action: 'accept', content: { decision: 'approve' } } },
            requestState: first.requestState,
          }),
        );
        expect(textOf(result)).toMatch(/Refunded \$11\.00 on order po_42/);
        expect(await refunds(sessionOf(result), '11')).toEqual({ started: 1, effects: 1 });
      } finally {
        await client.close();
      }
    });

    it('a decision made in Studio between the rounds stands: the retry returns what followed it, and its own answer decides nothing', async () => {
      const { client, round } = await modernClient(setup().balancer.url, KEYS.one, { manual: true });
      try {
        const first = question(await round('refund order po_42 for 12'));
        const studio = await fetch(`${setup().servers.at(-1)!.url}/api/hitl/${first.id}/approve`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEYS.one}`, 'content-type': 'application/json', 'x-stackbone-client': 'studio' },
          body: JSON.stringify({ payload: { note: 'from Studio' } }),
        });
        expect(studio.status).toBe(200);
        // The MCP human declines meanwhile; Studio's approval was first.
        const result = done(
          await round('refund order po_42 for 12', { inputResponses: { [first.id]: { action: 'decline' } }, requestState: first.requestState }),
        );
        expect(textOf(result)).toContain('This decision was already made elsewhere');
        expect(textOf(result)).toMatch(/Refunded \$12\.00 on order po_42 .*Note: from Studio/);
        const session = sessionOf(result);
        expect(await decisions(session)).toMatchObject([{ decision: { status: 'approved' } }]);
        expect(await refunds(session, '12')).toEqual({ started: 1, effects: 1 });
      } finally {
        await client.close();
      }
    });

    it('declined is a rejection the model is told of; cancelled is a cancellation; neither runs the refund', async () => {
      const { client, round } = await modernClient(setup().balancer.url, KEYS.one, { manual: true });
      try {
        const declined = question(await round('refund order po_42 for 13'));
        const told = done(
          await round('refund order po_42 for 13', { inputResponses: { [declined.id]: { action: 'decline' } }, requestState: declined.requestState }),
        );
        expect(textOf(told)).toMatch(/declined/);
        expect(await decisions(sessionOf(told))).toMatchObject([{ decision: { status: 'denied', by: { source: 'mcp' } } }]);
        expect(await refunds(sessionOf(told), '13')).toEqual({ started: 0, effects: 0 });

        const cancelled = question(await round('refund order po_42 for 14'));
        const ended = done(
          await round('refund order po_42 for 14', { inputResponses: { [cancelled.id]: { action: 'cancel' } }, requestState: cancelled.requestState }),
        );
        expect(await decisions(sessionOf(ended))).toMatchObject([{ decision: { status: 'cancelled', by: { source: 'mcp' } } }]);
        expect(await refunds(sessionOf(ended), '14')).toEqual({ started: 0, effects: 0 });
      } finally {
        await client.close();
      }
    });

    it('a client with links only is sent to Studio; declining the link leaves the decision waiting there, not asked again', async () => {
      const { client, round } = await modernClient(setup().balancer.url, KEYS.one, { manual: true, mode: 'url' });
      try {
        const first = question(await round('refund order po_42 for 16'));
        expect(first.request).toMatchObject({
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Decide in Studio: Refund $16.00 on order po_42', url: expect.stringContaining(`/studio?decision=${first.id}`) },
        });
        const waiting = done(
          await round('refund order po_42 for 16', { inputResponses: { [first.id]: { action: 'decline' } }, requestState: first.requestState }),
        );
        expect(waiting.structuredContent).toMatchObject({ status: 'waiting', waiting: [{ id: first.id }] });
        expect(await refunds(sessionOf(waiting), '16')).toEqual({ started: 0, effects: 0 });
      } finally {
        await client.close();
      }
    });

    it('a forged requestState and another caller’s are refused, deciding nothing; the real one still completes', async () => {
      const mine = await modernClient(setup().balancer.url, KEYS.one, { manual: true });
      const theirs = await modernClient(setup().balancer.url, KEYS.two, { manual: true });
      try {
        const first = question(await mine.round('refund order po_42 for 15'));
        const approve = { [first.id]: { action: 'accept' as const, content: { decision: 'approve' } } };
        const [payload, mac] = [
          first.requestState.slice(0, first.requestState.lastIndexOf('.')),
          first.requestState.slice(first.requestState.lastIndexOf('.') + 1),
        ];
        const forged = `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
        await expect(mine.round('refund order po_42 for 15', { inputResponses: approve, requestState: forged })).rejects.toMatchObject({ code: -32602 });
        await expect(theirs.round('refund order po_42 for 15', { inputResponses: approve, requestState: first.requestState })).rejects.toMatchObject({
          code: -32602,
        });
        // Still open, in the owner's inbox.
        const inbox = (await (await fetch(`${setup().balancer.url}/api/hitl`, { headers: { authorization: `Bearer ${KEYS.one}` } })).json()) as {
          interrupts: { id: string }[];
        };
        expect(inbox.interrupts.map((entry) => entry.id)).toContain(first.id);

        const result = done(await mine.round('refund order po_42 for 15', { inputResponses: approve, requestState: first.requestState }));
        expect(textOf(result)).toMatch(/Refunded \$15\.00 on order po_42/);
        expect(await refunds(sessionOf(result), '15')).toEqual({ started: 1, effects: 1 });
      } finally {
        await mine.client.close();
        await theirs.client.close();
      }
    });
  });
}
