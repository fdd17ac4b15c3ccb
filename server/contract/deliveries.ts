// Studio's list of the outbox's deliveries (docs/approvals.md, "Decision webhooks"): GET
// /api/studio/deliveries answers a DeliveryList; POST /api/studio/deliveries/{id}/retry one DeliveryItem.
import type { ChannelName, DeliveryStatus, NoticeType } from '../store/notices';

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
   * An email this server built and did not send (no STACKBONE_SMTP_URL, as on `npm run dev`):
   * its subject, whether it carried links that decide, and where open dev mode wrote it. Never
   * the links themselves: a link is its recipient's alone (docs/security.md, "Links and deliveries").
   */
  kept?: { subject: string; decides: boolean; file?: string };
}

export interface DeliveryList {
  deliveries: DeliveryItem[];
}
