// What the server tells the world outside a session (docs/approvals.md, "Decision webhooks").
export { CHANNELS, deliveryTargets } from './channels';
export type { ChannelEntry } from './channel-entry';
export type { Channel, ChannelName, DeliveryRecord, DeliveryStatus, Notice, NoticeType } from './notice';
export { deliverOutbox, startOutboxLoop } from './outbox';
export type { OutboxTick } from './outbox';
