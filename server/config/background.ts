// Who wakes due work (docs/deploy.md, "Due work"): the loops a long-lived server runs
// (server/boot; 0 turns one off, for a host that calls the cron routes instead), or Vercel Queues.
import { group } from './group';
import { choice, text, whole } from './variable';

export const background = group('', {
  STACKBONE_WAKER: choice(
    {
      description:
        'What wakes due work — timers, expiries, reminders, webhook retries, orphaned runs (docs/deploy.md, "Due work"): loop, the in-process loops below (npm run dev, npm start, Docker); vercel-queue, one Vercel Queues message per item at its time, delivered to POST /api/wake (the loops are off; the crons stay as the backstop).',
    },
    ['loop', 'vercel-queue'],
    'loop',
  ),
  STACKBONE_QUEUE_URL: text({
    description:
      "With STACKBONE_WAKER=vercel-queue: the queue service's address when it is not Vercel's own (a proxy, or the suite's stand-in at its HTTP boundary).",
  }),
  STACKBONE_SWEEP_MS: whole(
    {
      description:
        'How often (ms) the server sweeps for runs to carry on after a crash and expired approvals (0: never; a host without a long-lived process calls GET /api/cron/recover instead).',
    },
    'milliseconds',
    5_000,
  ),
  STACKBONE_RECOVERY_CONCURRENCY: whole({ description: 'How many sessions one sweep starts recovering at once.' }, '', 4, 1),
  STACKBONE_TIMER_MS: whole(
    { description: 'How often (ms) the server fires due timers (0: never; call GET /api/cron/timers instead).' },
    'milliseconds',
    1_000,
  ),
  STACKBONE_ATTACHMENT_SWEEP_MS: whole(
    { description: 'How often (ms) the server deletes uploads no message named (0: never; call GET /api/cron/attachments instead).' },
    'milliseconds',
    600_000,
  ),
});
