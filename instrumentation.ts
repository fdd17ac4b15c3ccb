// Runs once when a Next server starts: the recovery sweep that carries on runs whose server
// died and applies the default action of expired interrupts (server/runtime/recovery/recovery.ts), and
// the timer loop that fires due timers (server/runtime/turn-control/timers.ts), and the outbox loop that
// delivers notices (server/runtime/notify/outbox.ts), and the sweep of uploads no message named
// (server/attachments/sweep.ts). STACKBONE_SWEEP_MS=0 / STACKBONE_TIMER_MS=0 / STACKBONE_OUTBOX_MS=0 /
// STACKBONE_ATTACHMENT_SWEEP_MS=0 turn them off (a host that calls the cron routes instead).
export async function register() {
  // NEXT_RUNTIME stays a literal read: Next replaces it when it bundles, for each runtime.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // A variable with a bad value (server/config), a keyed server without STACKBONE_SECRET, and a
  // production server without keys (unless STACKBONE_ALLOW_OPEN_ACCESS=1) do not start (docs/security.md).
  (await import('./server/identity/start-checks')).refuseUnsafeStart();
  // A second server process on one SQLite file does not start either (docs/deploy.md).
  await (await import('./server/store/start-lock')).refuseSharedSqliteFile();
  const [{ startRecoveryLoop }, { startTimerLoop }, { startOutboxLoop }, { startBackgroundLoop }, { sweepUnclaimedAttachments }, { getStore }, { findAgent }] =
    await Promise.all([
      import('./server/runtime/recovery/recovery'),
      import('./server/runtime/turn-control/timers'),
      import('./server/runtime/notify/outbox'),
      import('./server/runtime/common/background-loop'),
      import('./server/attachments'),
      import('./server/store'),
      import('./server/agents'),
    ]);
  const { setting } = await import('./server/config');
  const sweepMs = setting('STACKBONE_SWEEP_MS');
  const timerMs = setting('STACKBONE_TIMER_MS');
  const outboxMs = setting('STACKBONE_OUTBOX_MS');
  const attachmentSweepMs = setting('STACKBONE_ATTACHMENT_SWEEP_MS');
  if (sweepMs > 0) startRecoveryLoop(getStore(), findAgent, sweepMs);
  if (timerMs > 0) startTimerLoop(getStore(), findAgent, timerMs);
  if (outboxMs > 0) startOutboxLoop(getStore(), findAgent, outboxMs);
  if (attachmentSweepMs > 0) startBackgroundLoop('attachment sweep', attachmentSweepMs, () => sweepUnclaimedAttachments());
}
