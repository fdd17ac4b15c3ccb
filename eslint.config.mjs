import next from 'eslint-config-next';

const config = [
  { ignores: ['generated/**', '.next/**', 'node_modules/**', 'e2e/artifacts/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
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
      'no-restricted-imports': ['error', { patterns: [{ group: ['next', 'next/*'], message: 'server/ is framework-free: no next/* imports (docs/architecture.md).' }] }],
    },
  },
];

export default config;
