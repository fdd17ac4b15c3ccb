import next from 'eslint-config-next';

// The house rules (docs/internals/architecture.md): what each floor may import. No import circle anywhere is
// tests/unit/import-graph.test.ts (import/no-cycle skips type-only imports, which tie rooms too). ESLint keeps one
// no-restricted-imports per file, so each block below lists every pattern its files obey.
const FRAMEWORK_FREE = { group: ['next', 'next/*'], message: 'server/ is framework-free: no next/* imports (docs/internals/architecture.md).' };
const RUNTIME_FACE = {
  regex: '^(@/server/|(\\.{1,2}/)+(server/)?)runtime/.+',
  message: 'Import the runtime from its face, server/runtime (index.ts), not from a file inside it (docs/internals/architecture.md, "Rooms").',
};
const ROOM_FACE = {
  regex: '^\\.\\./[a-z-]+/.+|^\\.\\.(/index)?$',
  message:
    'A room of server/runtime imports another room from its face (../room), never a file inside it, and never the runtime face above it (docs/internals/architecture.md, "Rooms").',
};
const ABOVE_RUNTIME = {
  group: ['**/wire', '**/wire/**', '**/http', '**/http/**', '**/web', '**/web/**', '**/routes', '**/routes/**', '**/identity', '**/identity/**'],
  message: 'server/runtime imports nothing from the floors above it (docs/internals/architecture.md, "Wires only translate").',
};
const ROUTES_ON_TOP = {
  group: ['**/routes', '**/routes/**'],
  message: 'server/routes is the top floor: only app/api imports it (docs/internals/architecture.md, "Routes").',
};
const WIRE_TRANSLATES = {
  group: ['**/routes', '**/routes/**', '**/identity', '**/identity/**', '**/web', '**/web/**'],
  message:
    'A wire only translates (request → runtime input, runtime parts → its shapes): who calls and the handling are server/identity and server/routes (docs/internals/architecture.md, "Wires only translate").',
};
const WIRE_READS_NO_STORE = {
  regex: '^(@/server/|(\\.{1,2}/)+)store(/index)?$',
  message:
    'A wire only translates: the route reads and writes the store, and hands the wire what it read (docs/internals/architecture.md, "Wires only translate").',
};
const AGENT_IMPORTS = {
  regex: '^(?!(zod|\\.\\./agent-kit|\\./[a-z0-9-]+)$|node:)',
  message:
    'An agent file imports server/agent-kit.ts (../agent-kit), zod, node: built-ins and its sibling files, nothing else (not ai, not ../runtime): what it needs is in the kit (README, "Add an agent").',
};
// The demo's agents (examples/demo/agents/) obey the same rule: the kit at any depth, zod, node:
// built-ins, and the demo's own files (a sibling, or ../<folder>/<file> within examples/demo).
const DEMO_AGENT_IMPORTS = {
  regex: '^(?!(zod|(\\.\\./)+server/agent-kit|\\./[a-z0-9-]+|\\.\\./[a-z0-9-]+/[a-z0-9-]+)$|node:)',
  message:
    'A demo agent imports server/agent-kit.ts, zod, node: built-ins and the demo\'s own files (examples/demo/), nothing else of the app: what it needs is in the kit (docs/make-it-yours.md, "3. Your first agent").',
};
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'tests/**', 'e2e/**'];
// Every environment variable is declared, described and read in server/config (README, "Configuration"):
// a read anywhere else would be one .env.example does not list and a start does not check. NODE_ENV
// and NEXT_RUNTIME stay literal reads: Next replaces them when it bundles.
const ENV_READ = 'MemberExpression[object.type="MemberExpression"][object.object.name="process"][object.property.name="env"]';
const ENV_NAMES_NEXT_REPLACES = ':not([property.name=/^(NODE_ENV|NEXT_RUNTIME)$/])';
const ENV_IN_CONFIG = {
  selector: `${ENV_READ}${ENV_NAMES_NEXT_REPLACES}, MemberExpression[object.name="process"][property.name="env"]:not(:matches(MemberExpression > .object))`,
  message: 'Read environment variables through server/config (setting(), testSetting()), where each is declared with its default (README, "Configuration").',
};

const config = [
  {
    ignores: [
      'generated/**',
      '.data/**',
      '.next/**',
      '.next-bench/**',
      'node_modules/**',
      'e2e/artifacts/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
    ],
  },
  ...next,
  {
    rules: {
      // One import statement per module.
      'import/no-duplicates': 'error',
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'server/**/*.ts', 'components/**/*.{ts,tsx}', 'examples/**/*.{ts,tsx}', 'proxy.ts', 'instrumentation.ts', 'next.config.ts'],
    ignores: ['server/config/**', ...TESTS],
    rules: { 'no-restricted-syntax': ['error', ENV_IN_CONFIG] },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs'],
    ignores: ['server/**', ...TESTS],
    rules: { 'no-restricted-imports': ['error', { patterns: [RUNTIME_FACE] }] },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/runtime/**', 'server/store/**', 'server/identity/page-owner.ts', ...TESTS],
    rules: { 'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE, RUNTIME_FACE, ROUTES_ON_TOP] }] },
  },
  {
    // The agents and their data; the registry (index.ts: it reads the tests' switch for their
    // fixture list, and lists the demo's) is not an agent and keeps the server/ rules above.
    files: ['server/agents/*.ts'],
    ignores: ['server/agents/index.ts', ...TESTS],
    rules: { 'no-restricted-imports': ['error', { patterns: [AGENT_IMPORTS] }] },
  },
  {
    // The demo's helpers that are app code — its MCP server, credential, notebook and handler
    // (mcp/), its refund table (tables/) — keep the server/ rules: no framework, the runtime
    // from its face. Product code imports none of examples/ but the registry: tests/unit/import-graph.test.ts.
    files: ['examples/**/*.ts'],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE, RUNTIME_FACE] }] },
  },
  {
    // The demo's agents and their data: imported as an agent file of server/agents/ is.
    files: ['examples/demo/agents/*.ts'],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [DEMO_AGENT_IMPORTS] }] },
  },
  {
    files: ['server/wire/**/*.ts'],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE, RUNTIME_FACE, WIRE_TRANSLATES, WIRE_READS_NO_STORE] }] },
  },
  {
    files: ['server/runtime/*/**/*.ts'],
    ignores: TESTS,
    rules: { 'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE, ABOVE_RUNTIME, ROOM_FACE] }] },
  },
  {
    files: ['server/runtime/*/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE, ABOVE_RUNTIME] }] },
  },
  {
    files: ['server/error-codes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            FRAMEWORK_FREE,
            {
              regex: '^(@/|\\.)',
              message:
                'server/error-codes.ts is below every floor: it imports nothing of the project (docs/internals/architecture.md, "One error vocabulary").',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            FRAMEWORK_FREE,
            {
              regex: '^(@/|\\.\\./)',
              message:
                'server/config is below every floor: every file may read it, so it imports nothing of the project (docs/internals/architecture.md, "Rooms").',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/telemetry/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            FRAMEWORK_FREE,
            {
              regex: '^(@/|\\.\\./)(?!config$)',
              message:
                'server/telemetry is one floor above server/config: every floor may use it, so it imports OpenTelemetry and the config, nothing else of the project (docs/internals/architecture.md, "Rooms").',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            FRAMEWORK_FREE,
            {
              regex: '^(@/|\\.{1,2}/)(.*/)?(runtime|wire|http|web|routes|identity)(/|$)',
              message:
                'server/store is below the runtime: it imports nothing of the runtime, the wires, HTTP, the web, the routes or identity (docs/internals/architecture.md).',
            },
          ],
        },
      ],
    },
  },
];

export default config;
