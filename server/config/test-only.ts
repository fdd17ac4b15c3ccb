// Switches only the tests set (docs/internals/architecture.md, "Test knobs"): fixture agents, a gate broken
// on purpose, a crash at a named point, the test databases and browser. A server people use
// never sets any of them; the runtime reads them through testSetting(), so a read says so.
import { group } from './group';
import { choice, flag, text, whole } from './variable';

export const testOnly = group('Tests only: a server people use sets none of these.', {
  STACKBONE_FIXTURE_AGENTS: flag({
    description: "1: the tests' fixture agents (tests/fixtures/agents/) are bundled, in a build made with it, and listed, on a server started with it.",
  }),
  STACKBONE_LEDGER_FILE: text({ description: 'The file the fixture agents record their side effects in, once per call.' }),
  STACKBONE_TEST_MODERN_MCP_URL: text({
    description: "The mcp-desk fixture's MCP server that speaks only protocol 2026-07-28 (tests/support/mcp-modern-server.mjs).",
  }),
  STACKBONE_TEST_LEGACY_MCP_URL: text({ description: "The mcp-desk fixture's MCP server of the 2025 era only (tests/support/mcp-legacy-server.mjs)." }),
  STACKBONE_LEDGER_SCHEMA: choice(
    { description: "v2: the ledger fixture's effect tool has a changed schema, as after a deploy between a pause and its resume (the restart tests)." },
    ['v2'],
    undefined,
  ),
  STACKBONE_DESK_APPROVERS: choice(
    { description: "key-holders: the approval-desk fixture's tools are approved only by key holders." },
    ['key-holders'],
    undefined,
  ),
  STACKBONE_TEST_BREAK_GATE: flag({
    description: "1 (with STACKBONE_FIXTURE_AGENTS=1): the ledger fixture's gate is broken on purpose, to show the approval-bypass suite notices.",
  }),
  STACKBONE_CRASH_AT: text({ description: 'A crash point (server/runtime/common/crash-point.ts): the process kills itself there, as a power cut would.' }),
  STACKBONE_CRASH_AFTER: whole({ description: 'On which pass of that point (the first by default).' }, '', 1, 1),
  TEST_POSTGRES_URL: text({ description: 'The PostgreSQL server the Postgres half of the suite uses.', example: 'postgres://root@127.0.0.1:5432/test' }),
  REQUIRE_POSTGRES: text({ description: 'Set (to anything, e.g. 1): an unreachable TEST_POSTGRES_URL is a failure instead of a loud skip.' }),
  CHROMIUM_PATH: text({
    description: "The browser Playwright drives when its own Chromium is not installed (else Debian's headless shell, else its chromium), and Lighthouse's.",
    example: '/usr/bin/chromium',
  }),
  STACKBONE_TEST_PORT_OFFSET: whole({ description: "Added to every test server's port, so that two checkouts can run the suites side by side." }, '', 0),
});
