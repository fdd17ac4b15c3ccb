import type { NextConfig } from 'next';
import { setting, testSetting } from './server/config';

/**
 * `npm run bench` builds and starts the server with STACKBONE_BENCH=1 (docs/internals/benchmarks.md, "How to
 * run"). Only that build reads the page extension `bench.ts`, so only it has the bench's baseline
 * route (app/api/bench/bare/route.bench.ts, which imports bench/), and it goes to .next-bench/, which
 * only a `next start` with the same variable serves: a product build (.next/) never holds the route.
 */
const benchBuild = setting('STACKBONE_BENCH');

/**
 * `npm test` builds after its own typecheck stage passed (scripts/test.mjs), so the build skips
 * its second pass over the same files; and a clean clone in CI (.ci/run) never builds again, so
 * it skips writing Turbopack's build cache, which only a later build would read.
 */
const typesChecked = setting('STACKBONE_TYPES_CHECKED');
const skipBuildCache = setting('STACKBONE_BUILD_CACHE') === 'off';

/**
 * The registry's `@stackbone/fixture-agents` (docs/internals/architecture.md, "Fixture agents"): the tests'
 * fixture agents in a build made with STACKBONE_FIXTURE_AGENTS=1 (scripts/test.mjs builds so),
 * and an empty list in any other, so that `npm run build` never bundles a file of tests/.
 */
const fixtureAgents = testSetting('STACKBONE_FIXTURE_AGENTS') ? './tests/fixtures/agents/index.ts' : './server/agents/no-fixture-agents.ts';

const nextConfig: NextConfig = {
  typescript: { ignoreBuildErrors: typesChecked },
  experimental: {
    // A server answers its first request once its own routes are loaded, not all of them: Next's
    // default preloads every route at start, and each route's bundle holds its own copy of the
    // runtime, so a start took 3.1 s and 330 MB before its first answer, 1.9 s and 245 MB without
    // (a route's first request pays ~0.1 s instead). A restart is what recovery waits on
    // (docs/internals/architecture.md, "Crash points").
    preloadEntriesOnStart: false,
    ...(skipBuildCache ? { turbopackFileSystemCacheForBuild: false } : {}),
  },
  turbopack: { resolveAlias: { '@stackbone/fixture-agents': fixtureAgents } },
  distDir: benchBuild ? '.next-bench' : '.next',
  pageExtensions: ['tsx', 'ts', 'jsx', 'js', ...(benchBuild ? ['bench.ts'] : [])],
  // `npm run dev` listens on 127.0.0.1 (docs/security.md, "Modes"): a page opened at that address
  // needs it allowed, or the HMR socket is refused and the page never hydrates.
  allowedDevOrigins: ['127.0.0.1'],
  // Native and engine-adjacent packages stay out of the server bundle.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg', 'pg'],
  // No other site may frame the app (a decision button under someone else's overlay), and the
  // page's own policy keeps plugins, <base> and form targets to this origin. A header set here
  // replaces the one a route sets, so an attachment (/api/agents/{name}/attachments/{id}) is left
  // out of the page's policy: it answers its own sandbox (server/routes/agents/attachments.ts;
  // docs/security.md, "Browsers").
  async headers() {
    const everywhere = [
      { key: 'X-Frame-Options', value: 'DENY' },
      { key: 'X-Content-Type-Options', value: 'nosniff' },
      { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    ];
    return [
      {
        source: '/:path((?!api/agents/[^/]+/attachments/[^/]+$).*)',
        headers: [{ key: 'Content-Security-Policy', value: "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'" }],
      },
      { source: '/:path*', headers: everywhere },
    ];
  },
};

export default nextConfig;
