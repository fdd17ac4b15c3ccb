// What a Next server does once when it starts (instrumentation.ts): it refuses to serve with an
// unsafe configuration (server/identity/start-checks.ts) or on a SQLite file another server serves
// (server/store/start-lock.ts), then starts the background loops: the recovery sweep that carries
// on runs whose server died and applies the default action of expired interrupts
// (docs/internals/architecture.md, "Crash points"), the timer loop (docs/turn-control.md,
// "Timers"), the outbox loop that delivers notices (docs/approvals.md) and the sweep of uploads no
// message named (docs/security.md). STACKBONE_SWEEP_MS=0 / STACKBONE_TIMER_MS=0 /
// STACKBONE_OUTBOX_MS=0 / STACKBONE_ATTACHMENT_SWEEP_MS=0 turn them off (a host that calls the
// cron routes instead, docs/deploy.md). With STACKBONE_WAKER=vercel-queue the first three stay
// off: queued wakes bring that work on time (docs/deploy.md, "Due work"). With
// OTEL_EXPORTER_OTLP_ENDPOINT set it first registers OpenTelemetry, whose SDK it imports only then
// (docs/observability.md).
//
// One module, imported once, from the runtime's face: the ten dynamic imports instrumentation.ts
// made into the runtime's rooms (which lint cannot see) were chunks of their own, 4.8 MB more
// code to parse at every start than this module's one.
import { findAgent } from '../agents';
import { sweepUnclaimedAttachments } from '../attachments';
import { setting } from '../config';
import { refuseUnsafeStart } from '../identity/start-checks';
import { startBackgroundLoop, startOutboxLoop, startRecoveryLoop, startTimerLoop } from '../runtime';
import { getStore } from '../store';
import { refuseSharedSqliteFile } from '../store/start-lock';
import { telemetryOn } from '../telemetry';

export async function startServerProcess(): Promise<void> {
  refuseUnsafeStart();
  // Before the store is made: the approval metrics take their meter when it is (server/telemetry/approval-metrics.ts).
  if (telemetryOn()) (await import('../telemetry/register')).registerTelemetry();
  await refuseSharedSqliteFile();
  const sweepMs = setting('STACKBONE_SWEEP_MS');
  const timerMs = setting('STACKBONE_TIMER_MS');
  const outboxMs = setting('STACKBONE_OUTBOX_MS');
  const attachmentSweepMs = setting('STACKBONE_ATTACHMENT_SWEEP_MS');
  const loops = setting('STACKBONE_WAKER') === 'loop';
  if (loops && sweepMs > 0) startRecoveryLoop(getStore(), findAgent, sweepMs);
  if (loops && timerMs > 0) startTimerLoop(getStore(), findAgent, timerMs);
  if (loops && outboxMs > 0) startOutboxLoop(getStore(), findAgent, outboxMs);
  if (attachmentSweepMs > 0) startBackgroundLoop('attachment sweep', attachmentSweepMs, () => sweepUnclaimedAttachments());
}
