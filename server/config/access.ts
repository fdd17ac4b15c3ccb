// Who owns what, and who may use the web app (docs/security.md, "Modes").
import { group } from './group';
import { choice, flag, text } from './variable';

export const access = group('', {
  STACKBONE_API_KEYS: text({
    description:
      'Owners. Comma-separated API keys, each at least 24 characters (`openssl rand -hex 24`), optionally labelled name=key or name:group=key (docs/approvals.md); unset = open dev mode (everyone is the local owner), which answers only requests to localhost and does not start in production (next start, Vercel).',
  }),
  STACKBONE_ALLOW_OPEN_ACCESS: flag({
    description:
      '1: no keys on purpose — a production server starts without them, and open dev mode serves requests from any host (the network, not just localhost). Everyone who reaches it is the owner.',
  }),
  STACKBONE_SECRET: text({
    description:
      'Signs approval links; and, without BETTER_AUTH_SECRET, the sessions of users and guests. Required when STACKBONE_API_KEYS is set (the server refuses to start without it): 32 bytes or more of randomness, e.g. `openssl rand -hex 32`.',
  }),
  STACKBONE_SECRET_PREVIOUS: text({
    description:
      'During a rotation: the secrets cookies may still be signed with (comma-separated); a browser keeps its identity and gets a cookie signed with the new STACKBONE_SECRET. Any length (an old, short one is what a rotation replaces); remove it once browsers have been back.',
  }),
  STACKBONE_RECEIPT_KEY: text({
    description:
      'The Ed25519 private JWK (one line of JSON) approval receipts are signed with (docs/approvals.md, "Signed receipts"); `npx stackbone receipt key` makes one. Default: a key derived from STACKBONE_SECRET. Its public part is served at /.well-known/jwks.json.',
  }),
  STACKBONE_RECEIPT_KEY_PREVIOUS: text({
    description:
      'During a rotation of STACKBONE_RECEIPT_KEY: the retired key (a JWK, or a JSON array of them; only the public part is used), kept listed at /.well-known/jwks.json so receipts it signed still verify.',
  }),
  STACKBONE_WEB_ACCESS: choice(
    {
      description:
        "Who may use the web app of a keyed server: `key` (default) — a browser signs in once with an API key at /sign-in; `open` — every browser gets its own identity (a public chat), and tools with `approvers: 'key-holders'` are approved only by key holders (docs/security.md).",
    },
    ['key', 'open'],
    'key',
  ),
  CRON_SECRET: text({
    description:
      'Authorizes GET /api/cron/recover, /api/cron/timers and /api/cron/outbox for a cron job (Vercel Cron sends it as Authorization: Bearer; vercel.json schedules them). Unset and no API keys: anyone may call them.',
  }),
});
