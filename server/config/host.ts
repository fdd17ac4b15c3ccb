// What the host sets (Vercel, a container), read as it gives it.
import { group } from './group';
import { text, whole } from './variable';

export const host = group('Set by the host: leave them unset here.', {
  VERCEL: text({ description: 'Set on Vercel: each function instance keeps a PostgreSQL pool of 5, not 10 (docs/deploy.md, "Connections").' }),
  VERCEL_URL: text({ description: "Set on Vercel: this deployment's host, which links use when STACKBONE_PUBLIC_URL is unset." }),
  PORT: whole(
    { description: 'The port this server listens on (next start reads it too); links use it when neither of the two above is set.', example: '' },
    '',
    3000,
    1,
  ),
});
