// A real SMTP server on a free port for a test's servers to mail through (STACKBONE_SMTP_URL):
// every message it is given, by recipient, as sent.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  /** What to set STACKBONE_SMTP_URL to. */
  url: string;
  /** Every message received, once per recipient, in arrival order. */
  mail: { to: string; raw: string }[];
  close(): Promise<void>;
}

/** Opens one; `mail` is the list it fills (a test's own, when it declares it up front). */
export async function openMailbox(mail: Mailbox['mail'] = []): Promise<Mailbox> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        for (const to of session.envelope.rcptTo) mail.push({ to: to.address, raw });
        callback();
      });
    },
  });
  // A connection's failure is the server's 'error' event: a Next server killed mid-delivery (a
  // test's afterAll) resets its connection, which must not end the test process. What was
  // delivered is in `mail`; a test asserts on that.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.warn(`[mailbox] ${error.message}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    mail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
