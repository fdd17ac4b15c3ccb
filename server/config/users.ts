// People: accounts, guests and roles (docs/users-and-roles.md). Better Auth reads its own two
// variables' names; they are declared here so .env.example and the start checks know them.
import { group } from './group';
import { text } from './variable';

export const users = group('People: accounts, guests and roles (docs/users-and-roles.md).', {
  BETTER_AUTH_SECRET: text({
    description:
      'Signs the sign-in cookies of user accounts and guests. Falls back to STACKBONE_SECRET; one of the two is required in production (32 bytes or more, `openssl rand -hex 32`).',
  }),
  BETTER_AUTH_URL: text({
    description: "This app's public URL for sign-in links and OAuth callbacks; falls back to STACKBONE_PUBLIC_URL, then the request's own origin.",
  }),
  STACKBONE_ADMIN_EMAILS: text({
    description: 'Comma-separated addresses that are admins when they sign up: they give roles in Studio → Team and with `npx stackbone users role`.',
  }),
  STACKBONE_ROLES: text({
    description:
      'Roles by address for a headless or test deployment, given when the user signs up (or at start, if they already have): `finance=alice@example.com,bob@example.com;ops=carol@example.com`.',
    example: '',
  }),
  GITHUB_CLIENT_ID: text({ description: 'With GITHUB_CLIENT_SECRET: "Continue with GitHub" on /sign-in (callback: <url>/api/auth/callback/github).' }),
  GITHUB_CLIENT_SECRET: text({ description: "The GitHub OAuth app's secret." }),
  GOOGLE_CLIENT_ID: text({ description: 'With GOOGLE_CLIENT_SECRET: "Continue with Google" on /sign-in (callback: <url>/api/auth/callback/google).' }),
  GOOGLE_CLIENT_SECRET: text({ description: "The Google OAuth client's secret." }),
  VERCEL_CLIENT_ID: text({
    description: 'With VERCEL_CLIENT_SECRET: "Continue with Vercel" on /sign-in (Sign in with Vercel; callback: <url>/api/auth/callback/vercel).',
  }),
  VERCEL_CLIENT_SECRET: text({ description: "The Vercel app's client secret." }),
});
