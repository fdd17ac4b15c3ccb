import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests always resolve the registry's `@stackbone/fixture-agents` to the fixture list, as the
 * tests' build does (next.config.ts). Unit tests have them listed (the helpdesk and the taskboard
 * are the agents they drive); an integration test's server is started with STACKBONE_FIXTURE_AGENTS=1.
 */
const alias = [
  { find: '@stackbone/fixture-agents', replacement: path.resolve(import.meta.dirname, 'tests/fixtures/agents/index.ts') },
  { find: '@', replacement: path.resolve(import.meta.dirname) },
  // The seeds' snippets import experimental-a2's packages as they are written (tests/seeds/tsconfig.json).
  { find: /^experimental-a2\/ai$/, replacement: path.resolve(import.meta.dirname, 'tests/seeds/experimental-a2/ai/index.ts') },
  { find: /^experimental-a2\/ai\/(server|react)$/, replacement: path.resolve(import.meta.dirname, 'tests/seeds/experimental-a2/ai/$1.ts') },
];

/** An example's own integration tests (examples/<name>/integration/), which go with it. */
const EXAMPLE_INTEGRATION = 'examples/*/integration/**/*.test.ts';

const FIXTURES_LISTED = { STACKBONE_FIXTURE_AGENTS: '1' };

const UNIT = ['server/**/*.test.ts', 'examples/**/*.test.ts', 'components/**/*.test.ts', 'bin/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/unit/**/*.test.ts'];

/**
 * Unit files that set environment variables, stub them or mock modules: each runs in a fresh
 * module graph, so what it sets reaches no other file.
 */
const OWN_PROCESS = [
  'server/receipts/receipts.test.ts',
  'server/wire/mcp/request-state.test.ts',
  'server/store/receipt-signing-store.test.ts',
  'server/runtime/decisions/receipt-check.test.ts',
  'server/agents/index.test.ts',
  'examples/demo/tables/refund-ledger.test.ts',
  'server/attachments/attachments.test.ts',
  'server/attachments/load-attachments.test.ts',
  'server/attachments/sweep.test.ts',
  'server/http/upload-body.test.ts',
  'server/auth/legacy-browser-cookie.test.ts',
  'server/credentials/signing-secret.test.ts',
  'server/identity/open-access.test.ts',
  'server/identity/owner.test.ts',
  'server/models/resolve.test.ts',
  'server/credentials/open-dev-mode.test.ts',
  'server/routes/hitl/decisions.test.ts',
  'server/routes/mcp/ask.test.ts',
  'server/routes/studio/approval-metrics.test.ts',
  'server/routes/wake.test.ts',
  'server/runtime/decisions/broken-gate.test.ts',
  'server/runtime/decisions/link-identity.test.ts',
  'server/runtime/decisions/quorum.test.ts',
  'server/runtime/notify/delivery-backoff.test.ts',
  'server/runtime/notify/interrupt-message.test.ts',
  'server/runtime/notify/outbound-escaping.test.ts',
  'server/runtime/notify/outbox.test.ts',
  'server/runtime/notify/signed-link.test.ts',
  'server/runtime/recovery/recovery.test.ts',
  'server/runtime/session/session-limits.test.ts',
  'server/runtime/session/view-cache-bytes.test.ts',
  'server/runtime/stream/log-projector.test.ts',
  'server/runtime/tools/tool-set.test.ts',
  'server/runtime/turn-control/decide-by-link.test.ts',
  'server/runtime/turn-control/server-session.test.ts',
  'server/runtime/turn/lease-lost.test.ts',
  'server/runtime/turn/model-fallback.test.ts',
  'server/store/telemetry-store.test.ts',
  'server/telemetry/model-call-spans.test.ts',
  'tests/unit/agent-route.test.ts',
  'tests/unit/approve-store-reads.test.ts',
  'tests/unit/bench-route.test.ts',
  'tests/unit/seed-snippets.test.ts',
];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: UNIT,
          env: FIXTURES_LISTED,
          exclude: [...configDefaults.exclude, ...OWN_PROCESS, EXAMPLE_INTEGRATION],
          environment: 'node',
          // The files of a worker share one module graph: importing the runtime once per worker, not
          // once per file, is most of the unit stage's time. A file that changes process.env or
          // mocks modules runs alone instead (unit-own-process).
          isolate: false,
          // Both cores: Vitest's default leaves one idle on a 2-core machine (the stage took 133 s, 89 s on two).
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: { name: 'unit-own-process', include: OWN_PROCESS, environment: 'node', env: FIXTURES_LISTED, maxWorkers: 2 },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', EXAMPLE_INTEGRATION],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          // Two files at a time: most of a file's time is spent waiting on its servers (leases,
          // timers, restarts), not computing. One real server per database kind is shared by the
          // files (global-setup.ts); a file's own servers sit on its worker's ports (tests/support/server.ts).
          maxWorkers: 2, // as many as global-setup.ts starts server pairs for (WORKER_SLOTS)
          // A worker runs its files one after another in one process, not one process per file (a
          // fork, Vitest and the clients imported again, 56 times). The files share that process's
          // environment, which each hands to the servers it starts: a file that sets a variable
          // stubs it (vi.stubEnv) and unstubs it in its afterAll.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
