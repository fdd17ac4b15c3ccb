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
  /**
   * An email this server kept instead of sending (no STACKBONE_SMTP_URL, as on `npm run dev`):
   * its subject and the links it carries, for a person to follow from Studio (docs/approvals.md).
   */
  kept?: { subject: string; links: { approve?: string; reject?: string; studio: string } };
}

export interface DeliveryList {
  deliveries: DeliveryItem[];
}
