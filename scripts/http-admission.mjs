// Requests from one address started one at a time by default (docs/security.md, "Requests from one
// address"), for `npm start`: preloaded with `node --import` beside the HTTP timeouts, it wraps the
// handler of the one server `next start` makes (scripts/lib/admission.mjs). Requests from this
// machine that name no forwarded address (the operator's own checks, the CLI) are not counted.
// Vercel runs no `next start`: its platform spreads a burst over instances instead.
import { admittedPerAddress } from './lib/admission.mjs';
import { changeCreatedServers, positiveWhole } from './lib/next-start-server.mjs';

const limits = {
  starting: positiveWhole('STACKBONE_REQUESTS_STARTING_PER_ADDRESS', 1),
  waiting: positiveWhole('STACKBONE_REQUESTS_WAITING_PER_ADDRESS', 256),
  holdMs: 100,
};

changeCreatedServers((options, handler) => [options, handler && admittedPerAddress(handler, limits)]);
