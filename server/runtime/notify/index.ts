// The notify room's face (docs/approvals.md, "Notifications and one-click links"): the notice
// vocabulary, the signed links, the messages and the email and Slack channels, and whom a
// notice goes to.
export type { Channel, ChannelName, DeliveryRecord, DeliveryStatus, Notice, NoticeType } from './notice';
export { DEFAULT_LINK_TTL_SECONDS, argumentsHash, canonicalJson, linkExpiry, signLink, verifyLink } from './signed-link';
export type { LinkAction, LinkClaims } from './signed-link';
export { INTERRUPT_NOTICES, escapeHtml, interruptLinks, noticeInterrupt, renderInterruptMessage } from './interrupt-message';
export type { InterruptLinks, InterruptMessage, RenderOptions } from './interrupt-message';
export { configuredEmailRecipients, emailChannel, recentEmailPreviews, renderEmail } from './email-channel';
export type { EmailChannel, EmailChannelOptions, EmailPreview } from './email-channel';
export { configuredSlackWebhook, slackChannel, slackPayload } from './slack-channel';
export type { SlackChannelOptions } from './slack-channel';
export { notificationTargets } from './targets';
export type { NotificationTargets } from './targets';
