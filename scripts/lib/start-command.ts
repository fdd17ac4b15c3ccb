// How `npm start` runs the production server (scripts/start.mjs), and the suite's servers as it does
// (tests/support/server.ts, e2e/start-command.ts): `next start` with Node's flags and preloads.
import path from 'node:path';

/** The preloads, each saying why in its own file: the HTTP timeouts, requests admitted per address, the compile cache. */
const PRELOADS = ['http-timeouts.mjs', 'http-admission.mjs', 'compile-cache.mjs'];

/**
 * Node 22 keeps `AsyncLocalStorage` (Next's request stores, OpenTelemetry's context, a tool's
 * `handlerContext()`) on promise hooks that run for every promise: ~19 % of a server's CPU on a
 * turn, and the flood's health checks waited behind it (docs/internals/benchmarks.md, "Node's async
 * context frame"). This flag keeps it on the async context instead, as Node 24 does by default —
 * and Node 24 refuses the flag.
 */
export function asyncContextFrameFlag(nodeVersion: string): string[] {
  return Number(nodeVersion.split('.')[0]) < 24 ? ['--experimental-async-context-frame'] : [];
}

/** Node's arguments for `next start` in the repository at `root`; the port and host are the caller's to add. */
export function nextStartArgs(root: string): string[] {
  return [
    ...asyncContextFrameFlag(process.versions.node),
    ...PRELOADS.flatMap((file) => ['--import', path.join(root, 'scripts', file)]),
    path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'),
    'start',
  ];
}
