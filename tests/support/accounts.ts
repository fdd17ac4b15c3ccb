// Members, as a person makes one (docs/users-and-roles.md): sign-up with email and password at
// Better Auth's `/api/auth/sign-up/email`, whose answer sets the session cookie; or sign-in when
// the address has an account already.
import { cookiesOf } from './guest';

/** Every test account's password. */
export const PASSWORD = 'correct horse battery';

/** A sign-up from this site's page (Better Auth checks the origin), with these extra headers (a guest's cookie, say). */
export async function signUp(url: string, email: string, extraHeaders: Record<string, string> = {}) {
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, ...extraHeaders },
    body: JSON.stringify({ email, password: PASSWORD, name: email.split('@')[0] }),
  });
  return { status: response.status, cookie: cookiesOf(response), body: (await response.json()) as Record<string, any> };
}

/** The session cookie of an account with this address: made now, or signed in to when it exists. */
export async function account(url: string, email: string): Promise<string> {
  const made = await signUp(url, email);
  if (made.status === 200) return made.cookie;
  const signedIn = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (signedIn.status !== 200) throw new Error(`${email} could neither sign up (${made.status}) nor sign in (${signedIn.status})`);
  return cookiesOf(signedIn);
}
