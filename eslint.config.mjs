import next from 'eslint-config-next';

const FRAMEWORK_FREE = { group: ['next', 'next/*'], message: 'server/ is framework-free: no next/* imports (docs/architecture.md).' };

const config = [
  { ignores: ['generated/**', '.next/**', '.next-bench/**', 'node_modules/**', 'e2e/artifacts/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  ...next,
  {
    rules: {
      // Runtime code must stay framework-free (docs/architecture.md).
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/http/page-owner.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE] }],
    },
  },
  {
    // Data flows one way: wires call the runtime, never the reverse; the store is below both.
    files: ['server/runtime/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE, { group: ['**/wire', '**/wire/**', '**/http', '**/http/**', '**/web', '**/web/**'], message: 'server/runtime imports nothing from wire/, http/ or web/ (docs/architecture.md, "Wires only translate").' }] }],
    },
  },
  {
    files: ['server/store/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [FRAMEWORK_FREE, { regex: '^(@/|\\.{1,2}/)(.*/)?(runtime|wire|http|web)(/|$)', message: 'server/store is below the runtime: it imports only server/events.ts (docs/architecture.md).' }] }],
    },
  },
];

export default config;
