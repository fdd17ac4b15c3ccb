// The database Better Auth writes its tables through (docs/users-and-roles.md): the app
// database's client (store/app-database.ts), so that on SQLite every one of its queries and
// transactions takes its turn with the event store's — two writers of one process on one file
// would deadlock (store/sqlite-turns.ts). Better Auth's Prisma adapter calls
// `db[model][operation](args)` and `db.$transaction(work)`; both are forwarded inside a turn, and
// a transaction's own client is Prisma's, so its queries run in the turn already taken.
import { withAppDatabase } from '../store/app-database';
import type { StoreClient } from '../store/prisma-client';

type Forward = (...args: unknown[]) => Promise<unknown>;

function modelOf(name: string): Record<string, Forward> {
  return new Proxy({} as Record<string, Forward>, {
    get: (_, operation) =>
      typeof operation === 'string'
        ? (...args: unknown[]) => withAppDatabase((db) => ((db as unknown as Record<string, Record<string, Forward>>)[name]![operation] as Forward)(...args))
        : undefined,
  });
}

/** A Prisma client for Better Auth's adapter whose every call takes the app database's turn. */
export function authDatabase(): StoreClient {
  return new Proxy({} as StoreClient, {
    get: (_, property) => {
      if (property === '$transaction') return (work: Forward) => withAppDatabase((db) => db.$transaction((tx) => work(tx)));
      if (typeof property !== 'string' || property.startsWith('$') || property === 'then') return undefined;
      return modelOf(property);
    },
  });
}
