// The outbound webhook (docs/approvals.md, "Decision webhooks"): every notice, POSTed as JSON
// `{type, timestamp, data}` to STACKBONE_WEBHOOK_URL and signed per Standard Webhooks with
// STACKBONE_WEBHOOK_SECRET (`whsec_…`): headers webhook-id (the notice's id, the same on every
// retry), webhook-timestamp and webhook-signature. A 2xx answer within 10 s is a delivery; anything
// else is a failed attempt, retried (delivery-backoff.ts). The secret is never logged nor shown: a
// delivery's target is the URL's origin, its last error the answer's status.
import { Webhook } from 'standardwebhooks';
import { withPublicOwnerIds } from '../../credentials/open-dev-mode';
import { sessionKeyOf } from '../session';
import type { ChannelEntry } from './channel-entry';
import type { Notice } from './notice';
import { setting } from '../../config';

const TIMEOUT_MS = 10_000;
/** The target of a STACKBONE_WEBHOOK_URL that is not a URL: shown as such, never the value itself. */
const INVALID_URL = 'invalid STACKBONE_WEBHOOK_URL';

interface WebhookConfig {
  /** null: not an http(s) URL — every attempt fails, saying so. */
  url: URL | null;
  /** What Studio shows: the URL's origin (its path and query may hold a token). */
  target: string;
  /** null: missing, or not a `whsec_` secret — every attempt fails, saying so. */
  signer: Webhook | null;
}

/** The configured webhook, or null when STACKBONE_WEBHOOK_URL is unset. */
function webhookConfig(): WebhookConfig | null {
  const raw = setting('STACKBONE_WEBHOOK_URL');
  if (!raw) return null;
  const parsed = URL.parse(raw);
  const url = parsed && /^https?:$/.test(parsed.protocol) ? parsed : null;
  return { url, target: url?.origin ?? INVALID_URL, signer: signerOf(setting('STACKBONE_WEBHOOK_SECRET')) };
}

function signerOf(secret: string | undefined): Webhook | null {
  if (!secret?.startsWith('whsec_')) return null;
  try {
    return new Webhook(secret);
  } catch {
    return null;
  }
}

/** The request body: the notice's type and time, its event's data with the session it is about. */
function webhookPayload(notice: Notice): string {
  return JSON.stringify({
    type: notice.type,
    timestamp: notice.at,
    // The session as its owner names it (what /api/hitl lists), not the store's owner-scoped id;
    // owner ids re-keyed, never a bare hash of an API key (docs/security.md, "Links and deliveries").
    data: withPublicOwnerIds({ ...notice.data, sessionId: sessionKeyOf(notice.sessionId), agent: notice.agent, ownerId: notice.ownerId, at: notice.at }),
  });
}

/** Why an attempt failed, in words that never hold the URL's path or the secret. */
function failure(error: unknown): Error {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return new Error(`timed out after ${TIMEOUT_MS / 1000} s`);
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return new Error(typeof cause === 'string' ? `network error (${cause})` : 'network error');
}

export const webhookChannel: ChannelEntry = {
  name: 'webhook',

  targetsFor() {
    const config = webhookConfig();
    return config ? [config.target] : [];
  },

  async send(notice, target) {
    const config = webhookConfig();
    if (!config) throw new Error('STACKBONE_WEBHOOK_URL is no longer set.');
    if (!config.url) throw new Error('STACKBONE_WEBHOOK_URL is not an http(s) URL.');
    if (config.target !== target) throw new Error(`STACKBONE_WEBHOOK_URL no longer points at ${target}.`);
    if (!config.signer) throw new Error('STACKBONE_WEBHOOK_SECRET is missing or not a whsec_ secret.');
    const body = webhookPayload(notice);
    const sentAt = new Date();
    let response: Response;
    try {
      response = await fetch(config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Stackbone-Webhooks/1',
          'webhook-id': notice.id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': config.signer.sign(notice.id, sentAt, body),
        },
        body,
        // A redirect is not a delivery: the receiver is the configured URL, not where it points.
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw failure(error);
    }
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new Error(`HTTP ${response.status}`);
  },
};
