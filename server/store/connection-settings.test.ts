// The connection settings a deployment picks from its environment (docs/deploy.md, "Connections"):
// how many connections each process keeps, and which URL takes the session-level LISTEN.
import { describe, expect, it } from 'vitest';
import { directDatabaseUrl } from './database-url';
import { postgresPoolSize } from './prisma-client';

describe('connection settings', () => {
  it('a function instance on Vercel keeps 5 connections, a long-lived server 10, and connection_limit overrides both', () => {
    expect(postgresPoolSize('postgres://db.example/app', {})).toBe(10);
    expect(postgresPoolSize('postgres://db.example/app', { VERCEL: '1' })).toBe(5);
    expect(postgresPoolSize('postgres://db.example/app?connection_limit=3', { VERCEL: '1' })).toBe(3);
    expect(postgresPoolSize('postgres://db.example/app?connection_limit=20&schema=s', {})).toBe(20);
  });

  it("LISTEN goes to DIRECT_URL, else Neon's DATABASE_URL_UNPOOLED, else (undefined) the app's own URL", () => {
    expect(directDatabaseUrl({ DIRECT_URL: ' postgres://direct/app ', DATABASE_URL_UNPOOLED: 'postgres://unpooled/app' })).toBe('postgres://direct/app');
    expect(directDatabaseUrl({ DATABASE_URL_UNPOOLED: 'postgres://unpooled/app' })).toBe('postgres://unpooled/app');
    expect(directDatabaseUrl({ DIRECT_URL: '  ' })).toBeUndefined();
    expect(directDatabaseUrl({})).toBeUndefined();
  });
});
