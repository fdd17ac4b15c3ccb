// V8's compiled code for `npm start`, kept on disk (Node's module compile cache), preloaded with
// `node --import`. Each start compiles the server's bundles again — and every route's bundle
// holds its own copy of the runtime — before it answers: a restart after a crash, which recovery
// waits on (docs/internals/architecture.md, "Crash points"), and each new instance of a deploy.
// With the cache a start to its first answer, five routes and a turn took 3.1 s of CPU instead of
// 3.4 s (four starts each, alternating). Entries are keyed by each file's content, so a new build
// never runs an old one's code; where the folder cannot be written, Node runs without the cache.
import module from 'node:module';
import path from 'node:path';

module.enableCompileCache?.(path.join(process.cwd(), '.next', 'cache', 'node-compile-cache'));
