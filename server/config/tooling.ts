// Variables read outside the server's own code, declared here so that .env.example lists them and
// a start with a bad one stops: the CLI (bin/stackbone.mjs), `npm start`'s HTTP timeouts and
// admission (scripts/http-timeouts.mjs, scripts/http-admission.mjs), the build (next.config.ts), an agent author's own.
import { choice, flag, text, whole } from './variable';
import { group } from './group';

export const tooling = group('', {
  STACKBONE_HEADERS_TIMEOUT_MS: whole(
    { description: 'npm start\'s HTTP timeouts (ms): headers, and a whole request with its body (docs/security.md, "Slow clients").' },
    'milliseconds',
    20_000,
    1,
  ),
  STACKBONE_REQUEST_TIMEOUT_MS: whole({ description: 'A whole request with its body (ms); at least the headers timeout.' }, 'milliseconds', 120_000, 1),
  STACKBONE_REQUESTS_STARTING_PER_ADDRESS: whole(
    { description: 'npm start: requests from one address started at once; the rest wait their turn (docs/security.md, "Requests from one address").' },
    '',
    1,
    1,
  ),
  STACKBONE_REQUESTS_WAITING_PER_ADDRESS: whole(
    { description: 'npm start: requests from one address that may wait to be started; past them, 429.' },
    '',
    256,
    1,
  ),
  STACKBONE_URL: text({ description: 'The CLI (npx stackbone, docs/cli.md): which server, and the key it sends.', example: 'http://localhost:3000' }),
  STACKBONE_API_KEY: text({ description: 'The key the CLI sends (one of STACKBONE_API_KEYS).' }),
  STACKBONE_BENCH: flag({ description: 'npm run bench builds and starts a server with its baseline route, in .next-bench/ (docs/internals/benchmarks.md).' }),
  STACKBONE_TYPES_CHECKED: flag({ description: 'npm test: the build skips the type check its own stage has passed.' }),
  STACKBONE_BUILD_CACHE: choice({ description: 'off: the build writes no Turbopack cache (a clean clone in CI never builds again).' }, ['off'], undefined),
  SUPPORT_SLACK_URL: text({
    description:
      "An agent's own notice target, as the notify example in server/authoring/define.ts names it: an agent may read any variable of its own this way (the starter's agents read none).",
  }),
});
