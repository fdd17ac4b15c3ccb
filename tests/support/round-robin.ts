// A load balancer without stickiness, for the bench's scale-out item and the tests that need several
// instances behind one URL: a few lines of node:http that hand each request to the next instance in
// turn and stream its answer back untouched, as a platform's router would. Each answer names the
// instance that served it (`x-instance`), so that a caller can tell which one took what.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  url: string;
  close(): Promise<void>;
}

export async function startRoundRobin(instances: string[]): Promise<RoundRobin> {
  const targets = instances.map((url) => new URL(url));
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next++ % targets.length;
    const target = targets[index]!;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-instance': String(index) });
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`round robin: instance ${index} failed: ${error.message}`);
    });
    // A client that leaves (a stream it stopped reading) closes the instance's side too.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
