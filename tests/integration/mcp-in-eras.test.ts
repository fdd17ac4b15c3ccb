// An agent on two MCP servers, one of each protocol era (docs/mcp.md, "MCP in"), on SQLite and
// PostgreSQL: our client negotiates each one's era. The one that speaks only 2026-07-28
// (tests/support/mcp-modern-server.mjs, which refuses 2025-era clients) asks by `input_required`:
// the question is durable in the chat, our server is killed (SIGKILL) and started again while it
// waits, and the answer goes back as the retry with the server's own requestState. The 2025-era
// one (tests/support/mcp-legacy-server.mjs) asks during the call: it is called again, answered.
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

const PORTS = { modern: 3431, legacy: 3434, sqlite: 3432, postgres: 3433 } as const;

const mcpServers: ChildProcess[] = [];
let mcpUrl: string;
let legacyUrl: string;

/** One of tests/support's MCP servers, on its port; its base URL once it answers. */
async function startMcpServer(script: string, port: number): Promise<string> {
  const file = fileURLToPath(new URL(`../support/${script}`, import.meta.url));
  mcpServers.push(spawn(process.execPath, [file, String(port)], { cwd: path.dirname(file), stdio: ['ignore', 'pipe', 'inherit'] }));
  const url = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${url}/calls`).catch(() => undefined))?.ok, 15_000, script);
  return url;
}

beforeAll(async () => {
  [mcpUrl, legacyUrl] = await Promise.all([
    startMcpServer('mcp-modern-server.mjs', testPort(PORTS.modern)),
    startMcpServer('mcp-legacy-server.mjs', testPort(PORTS.legacy)),
  ]);
});

afterAll(() => {
  for (const server of mcpServers) server.kill('SIGKILL');
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
  describe(`an agent on an MCP server of each era, ${kind}`, () => {
    let databaseUrl: string;
    const boot = () =>
      startServer({
        port: PORTS[kind],
        databaseUrl,
        env: { STACKBONE_TEST_MODERN_MCP_URL: `${mcpUrl}/mcp`, STACKBONE_TEST_LEGACY_MCP_URL: `${legacyUrl}/mcp` },
      });

    beforeAll(async () => {
      databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_mcp_eras');
    });

    it('shows the server’s question in the chat, keeps it across a restart, and finishes after the answer, the retry carrying the server’s state', async () => {
      const topic = `the ${kind} launch ${randomUUID().slice(0, 8)}`;
      const threadId = randomUUID();
      const firstRun = randomUUID();
      let server: TestServer = await boot();
      let interrupt: { id: string; reason: string; message: string; responseSchema: { properties: Record<string, unknown> } };
      try {
        const paused = await postRun(server.url, 'mcp-desk', {
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
        const thread = (await (await fetch(`${server.url}/api/agents/mcp-desk?threadId=${threadId}`)).json()) as {
          interrupts: { pending: { id: string }[] };
        };
        expect(thread.interrupts.pending.map((pending) => pending.id)).toEqual([interrupt.id]);
        const resumed = await postRun(server.url, 'mcp-desk', {
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

    it('a 2025-era server (our client falls back to its handshake) asks during the call; called again, it is answered', async () => {
      const topic = `the ${kind} retro ${randomUUID().slice(0, 8)}`;
      const threadId = randomUUID();
      const firstRun = randomUUID();
      const server = await boot();
      try {
        const paused = await postRun(server.url, 'mcp-desk', {
          threadId,
          runId: firstRun,
          messages: [userMessage(`call legacy_schedule_review {"topic": "${topic}"}`)],
        });
        const finished = paused.events.at(-1) as { type: string; outcome?: { type: string; interrupts?: { id: string; reason: string; message: string }[] } };
        expect(finished).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'interrupt' } });
        const interrupt = finished.outcome!.interrupts![0]!;
        expect(interrupt).toMatchObject({ reason: 'input_required', message: `Which day should the review of ${topic} be?` });
        const resumed = await postRun(server.url, 'mcp-desk', {
          threadId,
          runId: randomUUID(),
          parentRunId: firstRun,
          messages: [],
          resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { day: 'Monday' } }],
        });
        expect(resumed.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
        expect(JSON.stringify(resumed.events)).toContain(`Review of ${topic} scheduled for Monday (asked during the call).`);
        // The question was asked on the first call, and the call made again got the answer.
        const calls = ((await (await fetch(`${legacyUrl}/calls`)).json()) as { topic: string }[]).filter((call) => call.topic === topic);
        expect(calls).toHaveLength(2);
      } finally {
        await server.kill();
      }
    });
  });
}
