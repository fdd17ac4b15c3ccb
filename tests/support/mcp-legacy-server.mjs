// An MCP server of the 2025 era only (the v1 SDK's sessionful Streamable HTTP transport), for
// tests/integration/mcp-in-eras.test.ts: our client, which probes for 2026-07-28 first, must fall
// back to the `initialize` handshake here. Its `schedule_review` asks which day during the call
// (elicitation/create). Every tools/call it receives is kept, and GET /calls answers them.
// Usage: node tests/support/mcp-legacy-server.mjs <port>
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serveMcp } from './mcp-test-http.mjs';

const port = Number(process.argv[2]);
const calls = [];
const sessions = new Map();

function newServer() {
  const server = new McpServer({ name: 'legacy-only', version: '1.0.0' });
  server.registerTool(
    'schedule_review',
    { description: 'Schedule a review of a topic; asks the person which day.', inputSchema: { topic: z.string().min(1) } },
    async ({ topic }, extra) => {
      calls.push({ topic });
      const answer = await server.server.elicitInput(
        {
          mode: 'form',
          message: `Which day should the review of ${topic} be?`,
          requestedSchema: {
            type: 'object',
            properties: { day: { type: 'string', enum: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] } },
            required: ['day'],
          },
        },
        { relatedRequestId: extra.requestId },
      );
      return {
        content: [
          {
            type: 'text',
            text:
              answer.action === 'accept' ? `Review of ${topic} scheduled for ${answer.content.day} (asked during the call).` : `No review: ${answer.action}.`,
          },
        ],
      };
    },
  );
  return server;
}

serveMcp(
  port,
  calls,
  async (req, res, bytes) => {
    const body = bytes ? JSON.parse(bytes.toString('utf8')) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string' && sessions.has(sessionId)) return sessions.get(sessionId).handleRequest(req, res, body);
    if (req.method === 'POST' && isInitializeRequest(body)) {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await newServer().connect(transport);
      return transport.handleRequest(req, res, body);
    }
    // Anything else — the 2026-07-28 probe (server/discover) among it — is what a 2025 server without a session answers.
    res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
  },
  'legacy MCP server',
);
