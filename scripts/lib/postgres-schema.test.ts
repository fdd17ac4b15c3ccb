// prisma/postgres/schema.prisma is generated from prisma/schema.prisma (docs/database.md): the
// committed file must be what the generator makes now, or the PostgreSQL client and migrations
// would follow a model the source no longer has.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface PostgresSchema {
  SOURCE_SCHEMA: string;
  POSTGRES_SCHEMA: string;
  postgresSchemaFrom(source: string): string;
}
// A plain .mjs (scripts run before anything is compiled): imported by URL, typed here.
const { SOURCE_SCHEMA, POSTGRES_SCHEMA, postgresSchemaFrom } = (await import(new URL('./postgres-schema.mjs', import.meta.url).href)) as PostgresSchema;

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('the generated PostgreSQL schema', () => {
  it('is what the generator makes from prisma/schema.prisma', () => {
    expect(read(POSTGRES_SCHEMA), `${POSTGRES_SCHEMA} is stale: run \`node scripts/db.mjs generate\` (or \`npm run db:migrate\`)`).toBe(
      postgresSchemaFrom(read(SOURCE_SCHEMA)),
    );
  });

  it('differs from the source only in its header, provider and client output', () => {
    const source = read(SOURCE_SCHEMA);
    const generated = postgresSchemaFrom(source);
    expect(generated).toMatch(/^\/\/ GENERATED from prisma\/schema\.prisma/);
    expect(generated).toContain('provider = "postgresql"');
    expect(generated).toContain('output     = "../../generated/prisma-postgres"');
    const models = (text: string) => text.slice(text.indexOf('\nmodel '));
    expect(models(generated)).toBe(models(source));
  });

  it('stops on a source whose frame it does not know, instead of copying it unchanged', () => {
    const source = read(SOURCE_SCHEMA);
    expect(() => postgresSchemaFrom(source.replace('provider = "sqlite"', 'provider = "mysql"'))).toThrow(/provider = "sqlite"/);
    expect(() => postgresSchemaFrom(source.replace('../generated/prisma-sqlite', '../generated/client'))).toThrow(/prisma-sqlite/);
  });
});
