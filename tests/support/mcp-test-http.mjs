// The HTTP side the test MCP servers share (mcp-modern-server.mjs, mcp-legacy-server.mjs): GET /calls
// answers the tool calls the server kept, every other request goes to `handle` with its body read.
import http from 'node:http';

/** Listens on 127.0.0.1:`port`; `handle(req, res, body)` gets each MCP request, its body as bytes (undefined when empty). */
export function serveMcp(port, calls, handle, name) {
  http
    .createServer(async (req, res) => {
      if (req.method === 'GET' && req.url === '/calls') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(calls));
        return;
      }
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      await handle(req, res, chunks.length ? Buffer.concat(chunks) : undefined);
    })
    .listen(port, '127.0.0.1', () => console.log(`${name} on ${port}`));
}
