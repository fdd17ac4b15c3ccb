// Requests from one address are started one at a time by default (docs/security.md, "Requests from one
// address"). Node serves every request on one event loop, so a burst from one address — 40 page
// loads, 48 turns, 80 streams at once — would put every other address's request behind all of it.
// Here each address has `starting` requests being started at once; the rest wait in the order they
// came. A request counts as starting until it ends, or `holdMs` pass: past that it waits on
// something else (a model, a long poll), not on this process. A stream of events counts only until
// its headers are written: what it sends afterwards, its own limits bound. Past `waiting` requests
// waiting, an address is answered 429 at once.
import { AsyncResource } from 'node:async_hooks';
import { errorStatus } from '../../server/error-codes.ts';
import { clientAddress } from '../../server/http/client-address.ts';

const REFUSED = 'too_many_address_requests';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The address a request is counted under: the rule of every per-address limit, with the peer's
 * address where no proxy named one (what `next start` itself fills X-Forwarded-For with) — or
 * null for a request from this machine that names no other (the operator's own checks, the CLI).
 * @param {import('node:http').IncomingMessage} request
 */
function addressOf(request) {
  const named = request.headers['x-forwarded-for'] !== undefined || request.headers['x-real-ip'] !== undefined;
  const peer = request.socket.remoteAddress ?? '';
  if (!named && LOOPBACK.has(peer)) return null;
  const headers = {
    get: (name) => {
      const value = request.headers[name];
      if (name === 'x-forwarded-for' && value === undefined) return peer || null;
      return Array.isArray(value) ? value.join(', ') : (value ?? null);
    },
  };
  return clientAddress({ headers });
}

/**
 * `handler` with its requests admitted per address.
 * @param {(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void} handler
 * @param {{ starting: number; waiting: number; holdMs: number }} limits
 */
export function admittedPerAddress(handler, limits) {
  /** @type {Map<string, { starting: number; queue: (() => void)[] }>} */
  const addresses = new Map();

  return function admitted(request, response) {
    // The server, as Node calls a request listener.
    const server = this;
    const address = addressOf(request);
    if (address === null) {
      handler.call(server, request, response);
      return;
    }
    let entry = addresses.get(address);
    if (!entry) addresses.set(address, (entry = { starting: 0, queue: [] }));
    const line = entry;

    const next = () => {
      // A request whose client hung up while it waited is skipped (start() takes no place for it).
      while (line.starting < limits.starting && line.queue.length > 0) line.queue.shift()();
      if (line.starting === 0 && line.queue.length === 0 && addresses.get(address) === line) addresses.delete(address);
    };
    const start = () => {
      if (request.destroyed || response.destroyed) return;
      line.starting++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        clearTimeout(timer);
        line.starting--;
        // The next one starts on a turn of its own, not inside this request's write or close.
        setImmediate(next);
      };
      const timer = setTimeout(release, limits.holdMs);
      // A stream's answer begins with its headers; any other answer is done when it ends. Each
      // method is left in place for what wraps it after.
      for (const method of ['writeHead', 'flushHeaders', 'write', 'end']) {
        const original = response[method];
        response[method] = function answering(...args) {
          try {
            return original.apply(this, args);
          } finally {
            if (method === 'end' || isEventStream(response, method === 'writeHead' ? args : [])) release();
          }
        };
      }
      response.once('close', release);
      handler.call(server, request, response);
    };

    if (line.starting < limits.starting && line.queue.length === 0) {
      start();
      return;
    }
    if (line.queue.length >= limits.waiting) {
      refuse(response, line.queue.length);
      return;
    }
    // Started later in the async context it came in with (its trace, Next's request stores), not
    // in that of the request whose end let it in.
    line.queue.push(AsyncResource.bind(start));
  };
}

/**
 * Whether the response is a stream of events (its content type, as set before or by writeHead).
 * @param {import('node:http').ServerResponse} response
 * @param {unknown[]} writeHeadArgs
 */
function isEventStream(response, writeHeadArgs) {
  const named = (value) => String(value ?? '').startsWith('text/event-stream');
  if (named(response.getHeader('content-type'))) return true;
  const headers = writeHeadArgs.find((arg) => arg !== null && typeof arg === 'object');
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'content-type' && named(headers[i + 1])) return true;
    return false;
  }
  return Object.entries(headers ?? {}).some(([name, value]) => name.toLowerCase() === 'content-type' && named(value));
}

/** @param {import('node:http').ServerResponse} response */
function refuse(response, waiting) {
  const message = `This address has ${waiting} requests waiting to be served already; send fewer at once.`;
  response.writeHead(errorStatus(REFUSED), { 'Content-Type': 'application/json', 'Retry-After': '1', Connection: 'close' });
  response.end(JSON.stringify({ error: { code: REFUSED, message } }));
}
