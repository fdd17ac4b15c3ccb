// Requests from one address started a few at a time (docs/security.md, "Requests from one
// address"), for `npm start`: preloaded with `node --import` beside the HTTP timeouts, it wraps the
// handler of the one server `next start` makes (scripts/lib/admission.mjs). Requests from this
// machine that name no forwarded address (the operator's own checks, the CLI) are not counted.
// Vercel runs no `next start`: its platform spreads a burst over instances instead.
import http from 'node:http';
import { admittedPerAddress } from './lib/admission.mjs';

/** A positive whole number from the environment, else `fallback`. */
function whole(name, fallback) {
  const value = Math.floor(Number(process.env[name]?.trim() || NaN));
  return value > 0 ? value : fallback;
}

const limits = {
  starting: whole('STACKBONE_REQUESTS_STARTING_PER_ADDRESS', 1),
  waiting: whole('STACKBONE_REQUESTS_WAITING_PER_ADDRESS', 256),
  holdMs: 100,
};

const createServer = http.createServer;
http.createServer = function createServerWithAdmission(options, listener) {
  const [given, handler] = typeof options === 'function' || options === undefined ? [{}, options] : [options, listener];
  return createServer.call(this, given, handler && admittedPerAddress(handler, limits));
};
