// Studio's list of the outbox's deliveries (docs/approvals.md, "Decision webhooks"): GET
// /api/studio/deliveries answers a DeliveryList; POST /api/studio/deliveries/{id}/retry one DeliveryItem.
import type { ChannelName, DeliveryStatus, NoticeType } from '../notices';

export interface DeliveryItem {
  id: string;
  /** The notice's id: the webhook-id a receiver saw. */
  noticeId: string;
  noticeType: NoticeType;
  /** The session as its owner names it. */
  sessionId: string;
  channel: ChannelName;
  /** A URL's origin or an address, never a secret. */
  target: string;
  status: DeliveryStatus;
  attempts: number;
  /** ISO; meaningful while pending or failing. */
  nextAttemptAt: string;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export interface DeliveryList {
  deliveries: DeliveryItem[];
}
