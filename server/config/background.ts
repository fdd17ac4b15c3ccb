// The loops a long-lived server runs (server/boot); 0 turns one off, for a host that calls
// the cron routes instead (docs/deploy.md).
import { group } from './group';
import { whole } from './variable';

export const background = group('', {
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
