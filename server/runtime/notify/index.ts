// What the server tells the world outside a session (docs/approvals.md, "Decision webhooks"): the
// outbox's one pass, for the cron route. The loop starts from instrumentation.ts (outbox.ts).
export { deliverOutbox } from './outbox';
