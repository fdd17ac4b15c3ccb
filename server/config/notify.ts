// Approval workflows (docs/approvals.md): where links point, and who is told of an approval.
import { group } from './group';
import { text, whole } from './variable';

export const notify = group('Approval workflows (docs/approvals.md).', {
  STACKBONE_PUBLIC_URL: text({ description: "The links in messages start with this (else https://VERCEL_URL, else this server's own address)." }),
  STACKBONE_WEBHOOK_URL: text({
    description:
      'Signed decision webhooks (Standard Webhooks): every interrupt opened, decided, expired, escalated or reminded, and every run finished or failed, POSTed here with STACKBONE_WEBHOOK_SECRET. A value that is no http(s) URL fails every delivery, saying so in Studio.',
  }),
  STACKBONE_WEBHOOK_SECRET: text({ description: 'The whsec_ secret the webhooks are signed with.' }),
  STACKBONE_SMTP_URL: text({
    description:
      "Email with one-click Approve / Reject links, for every agent's approvals (agents add their own with defineDeepAgent({ notify })). Without an SMTP URL the messages are kept and shown in Studio.",
  }),
  STACKBONE_NOTIFY_EMAIL: text({ description: "Who is mailed of every agent's approvals (comma-separated addresses)." }),
  STACKBONE_EMAIL_FROM: text({ description: 'The sender of those messages. Default: Stackbone <stackbone@localhost>.' }),
  STACKBONE_APPROVER_EMAILS: text({
    description:
      "Whose vote a mailed link is, on a keyed server: comma-separated name=address, the name a key's in STACKBONE_API_KEYS (alice=alice@example.com). A link to an address bound to nobody decides only a call any one key holder decides alone; others are told for their information (docs/approvals.md).",
  }),
  STACKBONE_SLACK_WEBHOOK_URL: text({ description: "A Slack (or compatible) incoming-webhook URL told of every agent's approvals." }),
  STACKBONE_OUTBOX_MS: whole(
    { description: 'How often (ms) the outbox sends due notices (0: never; call GET /api/cron/outbox instead).' },
    'milliseconds',
    1_000,
  ),
  STACKBONE_DELIVERY_ATTEMPTS: whole({ description: 'How many attempts a delivery gets.' }, '', 8),
  STACKBONE_DELIVERY_BACKOFF_MS: whole(
    { description: 'The first wait between them (ms); later ones keep their ratio to it (5x, 30x, … up to 3600x).' },
    'milliseconds',
    2_000,
  ),
});
