// The mail an account gets from Better Auth (docs/users-and-roles.md, "Password reset", "Sign-in
// links"): a link to choose a new password, or one that signs in. Sent through STACKBONE_SMTP_URL
// from STACKBONE_EMAIL_FROM, as the approvals' mail is; without SMTP there is no way to prove an
// address, so neither is offered.
import nodemailer from 'nodemailer';
import { setting } from '../config';
import { emailSender } from '../runtime';

/** Whether accounts can be mailed: password resets are offered only then. */
export function accountMailConfigured(): boolean {
  return setting('STACKBONE_SMTP_URL') !== undefined;
}

async function send(to: string, subject: string, text: string): Promise<void> {
  const smtpUrl = setting('STACKBONE_SMTP_URL');
  if (!smtpUrl) throw new Error('Mail to an account needs STACKBONE_SMTP_URL.');
  await nodemailer.createTransport(smtpUrl).sendMail({ from: emailSender(), to, subject, text });
}

/** Mails a user the link to choose a new password; it works once, for an hour. */
export function sendPasswordReset(to: string, url: string): Promise<void> {
  return send(
    to,
    'Choose a new password',
    `Someone asked to reset the password of ${to}.\n\nChoose a new one: ${url}\n\nThe link works once, for an hour. If it was not you, ignore this message: your password stays as it is.\n`,
  );
}

/** Mails the link that signs in (and, for an address new here that may join, signs up); once, for 15 minutes. */
export function sendSignInLink(to: string, url: string): Promise<void> {
  return send(to, 'Your sign-in link', `Sign in as ${to}: ${url}\n\nThe link works once, for 15 minutes. If you did not ask for it, ignore this message.\n`);
}
