// A small MCP server over stdio, for the MCP client's stdio tests (server/runtime/tools/mcp-tools.test.ts):
// run as a command, it serves `echo` (with the call's idempotency key) and `pick_colour` (which asks
// the person through a form).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

async function serve() {
  const server = new McpServer({ name: 'stdio-test', version: '1.0.0' });
  // Echoes the idempotency key the call carried, too (docs/mcp.md, "Calls are tool calls").
  server.registerTool('echo', { description: 'Echo a text.', inputSchema: { text: z.string() } }, async ({ text }, extra) => ({
    content: [{ type: 'text', text: `echo: ${text} (key ${extra._meta?.['io.stackbone/idempotency-key']})` }],
  }));
  server.registerTool('pick_colour', { description: 'Ask for a colour.', inputSchema: {} }, async (_input, extra) => {
    const answer = await server.server.elicitInput(
      {
        mode: 'form',
        message: 'Which colour?',
        requestedSchema: { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] },
      },
      { relatedRequestId: extra.requestId },
    );
    return { content: [{ type: 'text', text: answer.action === 'accept' ? `picked ${answer.content.colour}` : `no colour: ${answer.action}` }] };
  });
  await server.connect(new StdioServerTransport());
}

await serve();
