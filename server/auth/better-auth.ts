// Better Auth, on our schema (docs/users-and-roles.md): accounts with email and password, guests
// (the anonymous plugin), API keys that belong to users, OAuth when its variables are set, and
// rate limits stored in the database so they hold across instances. Mounted at /api/auth/*
// (app/api/auth/[...all]/route.ts). Made on first use: its settings are read then.
import { apiKey } from '@better-auth/api-key';
import { prismaAdapter } from '@better-auth/prisma-adapter';
import { betterAuth } from 'better-auth';
import { nextCookies } from 'better-auth/next-js';
import { anonymous, magicLink } from 'better-auth/plugins';
import { setting } from '../config';
import { thisSiteOrigins } from '../http/same-origin';
import { databaseKind, databaseUrl } from '../store/database-url';
import { accountMailConfigured, sendPasswordReset, sendSignInLink } from './account-mail';
import { authDatabase } from './auth-database';
import { adoptBrowserGuest, adoptGuest, guestOwnerId } from './guest-account';
import { giveSeededRoles } from './user-roles';
import { checkNewUser } from './who-may-join';

/** What a user's API key starts with, so a key in a header is looked up only when it can be one. */
export const USER_KEY_PREFIX = 'sbk_';

/** Where Better Auth answers; its default, which its browser client assumes. */
const AUTH_BASE_PATH = '/api/auth';

function socialProviders() {
  const pair = (id: string | undefined, secret: string | undefined) => (id && secret ? { clientId: id, clientSecret: secret } : undefined);
  const github = pair(setting('GITHUB_CLIENT_ID'), setting('GITHUB_CLIENT_SECRET'));
  const google = pair(setting('GOOGLE_CLIENT_ID'), setting('GOOGLE_CLIENT_SECRET'));
  const vercel = pair(setting('VERCEL_CLIENT_ID'), setting('VERCEL_CLIENT_SECRET'));
  return { ...(github ? { github } : {}), ...(google ? { google } : {}), ...(vercel ? { vercel } : {}) };
}

/** The social providers configured now, for the sign-in page's buttons. */
export function configuredSocialProviders(): string[] {
  return Object.keys(socialProviders());
}

/** What signs the session cookies: BETTER_AUTH_SECRET, else STACKBONE_SECRET. */
function authSecret(): string | undefined {
  return setting('BETTER_AUTH_SECRET') ?? setting('STACKBONE_SECRET');
}

/**
 * Whether accounts are offered: always in development (Better Auth signs with a development
 * secret and says so), and in production only with a secret — Better Auth refuses to start there
 * without one, and a deployment that runs open without keys need not have one.
 */
export function accountsAvailable(): boolean {
  return process.env.NODE_ENV !== 'production' || authSecret() !== undefined;
}

function createAuth() {
  const secret = authSecret();
  const baseURL = setting('BETTER_AUTH_URL') ?? setting('STACKBONE_PUBLIC_URL');
  return betterAuth({
    appName: 'Stackbone',
    basePath: AUTH_BASE_PATH,
    ...(secret ? { secret } : {}),
    ...(baseURL ? { baseURL } : {}),
    // Ours by the app's one same-site rule (server/http/same-origin.ts), whatever host serves it.
    trustedOrigins: (request) => thisSiteOrigins(request),
    database: prismaAdapter(authDatabase(), { provider: databaseKind(databaseUrl()) === 'postgres' ? 'postgresql' : 'sqlite' }),
    session: { modelName: 'authSession' },
    // What a user's conversations are kept under (guest-account.ts); never from a client's input.
    user: { additionalFields: { ownerId: { type: 'string', required: false, input: false } } },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      // Offered only where mail goes out (account-mail.ts); the link lands on /reset-password.
      ...(accountMailConfigured() ? { sendResetPassword: ({ user, url }) => sendPasswordReset(user.email, url), resetPasswordTokenExpiresIn: 3600 } : {}),
      revokeSessionsOnPasswordReset: true,
    },
    socialProviders: socialProviders(),
    // In the database, so a limit holds on every instance (Vercel) and across restarts.
    rateLimit: {
      enabled: true,
      storage: 'database',
      // Per address: a household or an office shares one, so sign-ups get more room than Better
      // Auth's 3 in 10 s; a guest is also counted as a new identity (who-may-join.ts).
      customRules: {
        '/sign-up/email': { window: 60, max: 10 },
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-in/anonymous': { window: 60, max: 30 },
      },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user, context) => {
            const made = user as { email: string; isAnonymous?: boolean };
            // Made by a request (/api/auth/*) or by the app for one (proxy.ts): its headers say whose it is.
            const headers = context?.request?.headers ?? context?.headers;
            await checkNewUser(made, headers ? { headers } : undefined);
            // A guest's conversations are kept as the public chat's visitors' are (guest-account.ts).
            if (made.isAnonymous) return { data: { ...user, ownerId: await guestOwnerId(headers) } };
          },
          after: async (user, context) => {
            if ((user as { isAnonymous?: boolean }).isAnonymous) return;
            await giveSeededRoles(user.id, user.email);
            await adoptBrowserGuest(user.id, context?.request?.headers ?? context?.headers);
          },
        },
      },
    },
    plugins: [
      anonymous({ onLinkAccount: ({ anonymousUser, newUser }) => adoptGuest(anonymousUser.user.id, newUser.user.id) }),
      // Our own limits stand before every request (server/http/limits.ts); a key's own daily budget is none of ours.
      apiKey({ rateLimit: { enabled: false }, defaultPrefix: USER_KEY_PREFIX }),
      // Sign-in links where mail goes out; a new address may join only as who-may-join.ts says.
      ...(accountMailConfigured() ? [magicLink({ expiresIn: 15 * 60, sendMagicLink: ({ email, url }) => sendSignInLink(email, url) })] : []),
      nextCookies(),
    ],
  });
}

type Auth = ReturnType<typeof createAuth>;

// On globalThis: Next bundles routes and pages separately; one instance per process.
const cache = globalThis as typeof globalThis & { __stackboneAuth?: { url: string; auth: Auth } };

/** The Better Auth instance for the database configured now. */
export function getAuth(): Auth {
  const url = databaseUrl();
  if (cache.__stackboneAuth?.url !== url) cache.__stackboneAuth = { url, auth: createAuth() };
  return cache.__stackboneAuth.auth;
}
