// Node's HTTP timeouts for `npm start` (docs/security.md, "Slow clients"), preloaded with
// `node --import`: `next start` creates its server itself and offers only --keepAliveTimeout, so
// this sets the rest on the one server it makes. A client that trickles its headers is cut after
// STACKBONE_HEADERS_TIMEOUT_MS (20 s), and one that trickles its body — an upload stalled on
// purpose, holding memory — after STACKBONE_REQUEST_TIMEOUT_MS (120 s), instead of Node's 60 s
// and 300 s. Responses are not bounded: a live stream may last as long as it is read. Vercel runs
// no `next start` and has limits of its own.
import { changeCreatedServers, positiveWhole } from './lib/next-start-server.mjs';

const headersTimeout = positiveWhole('STACKBONE_HEADERS_TIMEOUT_MS', 20_000);
const requestTimeout = Math.max(headersTimeout, positiveWhole('STACKBONE_REQUEST_TIMEOUT_MS', 120_000));
// How often Node looks for connections past them: a fraction of the shorter one (Node's default is 30 s).
const connectionsCheckingInterval = Math.max(250, Math.min(5_000, Math.floor(headersTimeout / 4)));

changeCreatedServers((options, handler) => [{ headersTimeout, requestTimeout, connectionsCheckingInterval, ...options }, handler]);
