// What the server tells the world outside a session (docs/approvals.md): the notice vocabulary,
// the outbox's one pass for the cron route and its loop (started by server/boot), the signed
// links, the messages, the email and Slack channels, and whom a notice goes to.
export { deliverOutbox, startOutboxLoop } from './outbox';
export type { Channel, Notice, NoticeType } from './notice';
export { argumentsHash, linkExpiry, signLink } from '../../credentials/link-token';
export type { LinkAction, LinkClaims } from '../../credentials/link-token';
export { verifyLink } from './signed-link';
export { escapeHtml, renderInterruptMessage } from './interrupt-message';
export type { InterruptMessage } from './interrupt-message';
export { configuredEmailRecipients, emailChannel, emailSender, keptEmails, renderEmail } from './email-channel';
export type { EmailPreview, KeptEmail } from './email-channel';
export { configuredSlackWebhook, slackChannel } from './slack-channel';
export { notificationTargets } from './targets';
export type { NotificationTargets } from './targets';
