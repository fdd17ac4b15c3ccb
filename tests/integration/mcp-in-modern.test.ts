// An agent on an MCP server that speaks only protocol 2026-07-28 (docs/mcp.md, "Two eras"), on
// SQLite and PostgreSQL: our client negotiates that era; the server's `input_required` becomes a
// durable question in the chat; the server process of ours is killed (SIGKILL) and started again
// while it waits; the answer then goes back as the retry, with the server's own requestState, and
// the turn finishes. The server (tests/support/mcp-modern-server.mjs) refuses 2025-era clients.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventType } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually } from '../support/inspect';
import { startServer, testPort, type TestServer } from '../support/server';

const PORTS = { mcp: 3431, sqlite: 3432, postgres: 3433 } as const;
const modernServerScript = fileURLToPath(new URL('../support/mcp-modern-server.mjs', import.meta.url));

let mcp: ChildProcess;
let mcpUrl: string;

beforeAll(async () => {
  const port = testPort(PORTS.mcp);
  mcp = spawn(process.execPath, [modernServerScript, String(port)], { cwd: path.dirname(modernServerScript), stdio: ['ignore', 'pipe', 'inherit'] });
  mcpUrl = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${mcpUrl}/calls`).catch(() => undefined))?.ok, 15_000, 'the modern MCP server');
});

afterAll(() => {
  mcp?.kill('SIGKILL');
});

interface Call {
  topic: string;
  inputResponses: Record<string, { action: string; content?: unknown }> | null;
  state: { topic: string; asked: number } | null;
}

describe('the modern-only MCP server', () => {
  it('refuses a 2025-era client (it speaks 2026-07-28 alone)', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    };
    const response = await fetch(`${mcpUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32022, data: { supported: ['2026-07-28'] } } });
  });
});

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`an agent on a 2026-07-28 MCP server, ${kind}`, () => {
    let databaseUrl: string;
    const boot = () => startServer({ port: PORTS[kind], databaseUrl, env: { STACKBONE_TEST_MODERN_MCP_URL: `${mcpUrl}/mcp` } });

    beforeAll(async () => {
      databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_mcp_modern');
    });

    it('shows the server’s question in the chat, keeps it across a restart, and finishes after the answer, the retry carrying the server’s state', async () => {
      const topic = `the ${kind} launch ${randomUUID().slice(0, 8)}`;
      const threadId = randomUUID();
      const firstRun = randomUUID();
      let server: TestServer = await boot();
      let interrupt: { id: string; reason: string; message: string; responseSchema: { properties: Record<string, unknown> } };
      try {
        const paused = await postRun(server.url, 'modern-desk', {
          threadId,
          runId: firstRun,
          messages: [userMessage(`call modern_schedule_review {"topic": "${topic}"}`)],
        });
        const finished = paused.events.at(-1) as { type: string; outcome?: { type: string; interrupts?: (typeof interrupt)[] } };
        expect(finished).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'interrupt' } });
        interrupt = finished.outcome!.interrupts![0]!;
        expect(interrupt).toMatchObject({ reason: 'input_required', message: `Which day should the review of ${topic} be?` });
        expect(Object.keys(interrupt.responseSchema.properties)).toEqual(['day']);
        // What the server holds for it is not on the wire.
        expect(JSON.stringify(paused.events)).not.toContain('requestState');
      } finally {
        await server.kill('SIGKILL');
      }

      server = await boot();
      try {
        // After the restart, the question is still there for the chat to show.
        const thread = (await (await fetch(`${server.url}/api/agents/modern-desk?threadId=${threadId}`)).json()) as {
          interrupts: { pending: { id: string }[] };
        };
        expect(thread.interrupts.pending.map((pending) => pending.id)).toEqual([interrupt.id]);
        const resumed = await postRun(server.url, 'modern-desk', {
          threadId,
          runId: randomUUID(),
          parentRunId: firstRun,
          messages: [],
          resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { day: 'Friday' } }],
        });
        expect(resumed.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
        expect(JSON.stringify(resumed.events)).toContain(`Review of ${topic} scheduled for Friday (round 1 answered).`);
      } finally {
        await server.kill();
      }

      // Two rounds reached the MCP server: the question, then the answer with the state it minted — not a third from the top.
      const calls = ((await (await fetch(`${mcpUrl}/calls`)).json()) as Call[]).filter((call) => call.topic === topic);
      expect(calls).toEqual([
        { topic, inputResponses: null, state: null },
        { topic, inputResponses: { day: { action: 'accept', content: { day: 'Friday' } } }, state: { topic, asked: 1 } },
      ]);
    });
  });
}
