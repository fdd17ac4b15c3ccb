// An MCP server that speaks only protocol 2026-07-28 (the official v2 SDK's createMcpHandler with
// legacy refused), for tests/integration/mcp-in-eras.test.ts: its `schedule_review` asks which day
// by answering `input_required` with a sealed requestState, and takes the answer only with that
// state echoed back. Every tools/call it receives is kept, and GET /calls answers them.
// Usage: node tests/support/mcp-modern-server.mjs <port>
import { acceptedContent, createMcpHandler, createRequestStateCodec, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveMcp } from './mcp-test-http.mjs';

const port = Number(process.argv[2]);
const codec = createRequestStateCodec({ key: 'mcp-modern-test-server-0123456789abcdef', ttlSeconds: 3600 });
const DAY = z.object({ day: z.enum(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) });
const calls = [];

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'modern-only', version: '1.0.0' }, { requestState: { verify: codec.verify } });
    server.registerTool(
      'schedule_review',
      { description: 'Schedule a review of a topic; asks the person which day.', inputSchema: z.object({ topic: z.string().min(1) }) },
      async ({ topic }, ctx) => {
        const state = ctx.mcpReq.requestState();
        calls.push({ topic, inputResponses: ctx.mcpReq.inputResponses ?? null, state: state ?? null });
        const chosen = acceptedContent(ctx.mcpReq.inputResponses, 'day', DAY);
        if (!chosen || state?.topic !== topic) {
          return inputRequired({
            inputRequests: {
              day: inputRequired.elicit({
                message: `Which day should the review of ${topic} be?`,
                requestedSchema: { type: 'object', properties: { day: { type: 'string', enum: DAY.shape.day.options } }, required: ['day'] },
              }),
            },
            requestState: await codec.mint({ topic, asked: calls.filter((call) => call.topic === topic).length }),
          });
        }
        return { content: [{ type: 'text', text: `Review of ${topic} scheduled for ${chosen.day} (round ${state.asked} answered).` }] };
      },
    );
    return server;
  },
  { legacy: 'reject' },
);

serveMcp(
  port,
  calls,
  async (req, res, body) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = await handler.fetch(new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  },
  'modern MCP server',
);
