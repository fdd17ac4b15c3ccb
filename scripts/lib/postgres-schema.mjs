// prisma/schema.prisma is the one schema (docs/database.md); prisma/postgres/schema.prisma is
// made from it here, by `node scripts/db.mjs generate` and `npm run db:migrate`. The models are
// copied as they are: every type the SQLite schema can use (String, Int, BigInt, Float, Decimal,
// Boolean, DateTime, Json, Bytes) means the same on PostgreSQL, and SQLite takes no native type
// (@db.…), so nothing in a model needs translating. Only the file's frame differs: its header, the
// datasource's provider, and where the client goes (the path is relative to the file, one folder
// deeper).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const SOURCE_SCHEMA = 'prisma/schema.prisma';
export const POSTGRES_SCHEMA = 'prisma/postgres/schema.prisma';

const GENERATED_HEADER = [
  `// GENERATED from ${SOURCE_SCHEMA} by scripts/lib/postgres-schema.mjs (node scripts/db.mjs generate).`,
  `// Do not edit: change ${SOURCE_SCHEMA}, then run \`npm run db:migrate\` (docs/database.md).`,
];

/** The leading `//` lines of a schema: its header, which is not part of the model. */
const HEADER = /^(?:\/\/[^\n]*\n)*\n*/;

/** One exact rewrite; a source that no longer matches stops the generator instead of going unchanged. */
function swap(text, pattern, replacement, what) {
  if (!pattern.test(text)) throw new Error(`${SOURCE_SCHEMA}: cannot find ${what} (scripts/lib/postgres-schema.mjs expects ${pattern}).`);
  return text.replace(pattern, replacement);
}

/** The schema without its header comment: what the generated file and the source must agree on. */
export function schemaBody(text) {
  return text.replace(HEADER, '');
}

/** The PostgreSQL schema for a SQLite source schema (headers included). */
export function postgresSchemaFrom(source, header = GENERATED_HEADER) {
  let body = schemaBody(source);
  body = swap(body, /(datasource db \{[^}]*provider\s*=\s*)"sqlite"/, '$1"postgresql"', 'the datasource\'s provider = "sqlite"');
  body = swap(
    body,
    /(generator client \{[^}]*output\s*=\s*)"\.\.\/generated\/prisma-sqlite"/,
    '$1"../../generated/prisma-postgres"',
    'the client output "../generated/prisma-sqlite"',
  );
  return `${header.join('\n')}\n\n${body}`;
}

/** Rewrites prisma/postgres/schema.prisma under root from the source; answers whether it changed. */
export function writePostgresSchema(root) {
  const target = path.join(root, POSTGRES_SCHEMA);
  const next = postgresSchemaFrom(readFileSync(path.join(root, SOURCE_SCHEMA), 'utf8'));
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // Not there yet: written below.
  }
  if (current === next) return false;
  writeFileSync(target, next);
  return true;
}
