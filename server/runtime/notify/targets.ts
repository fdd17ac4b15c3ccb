// Whom a notice goes to by email and Slack (docs/approvals.md, "Notifications and one-click
// links"): the targets configured for every agent (STACKBONE_NOTIFY_EMAIL,
// STACKBONE_SLACK_WEBHOOK_URL), the agent's own (`defineDeepAgent({ notify })`) and those of the
// tool that waits, each once. Only the notices a person acts on are mailed or posted — an
// interrupt opened, a reminder, an escalation; the signed webhook carries every notice.
import type { DeepAgent } from '../../authoring';
import type { Notice } from './notice';
import { configuredEmailRecipients } from './email-channel';
import { INTERRUPT_NOTICES, noticeInterrupt } from './interrupt-message';
import { configuredSlackWebhook } from './slack-channel';

export interface NotificationTargets {
  /** Email addresses, one message each. */
  email: string[];
  /** Incoming-webhook URLs (secrets: show their origin only). */
  slack: string[];
}

/** The email and Slack targets of a notice of `agent`'s session; none for a notice nobody acts on. */
export function notificationTargets(agent: Pick<DeepAgent, 'notify'> | undefined, notice: Notice): NotificationTargets {
  if (!INTERRUPT_NOTICES.includes(notice.type)) return { email: [], slack: [] };
  const routing = agent?.notify ?? { email: [], slack: [], tools: {} };
  const forTool = routing.tools[noticeInterrupt(notice).toolName];
  if (forTool === false) return { email: [], slack: [] };
  const envSlack = configuredSlackWebhook();
  // An escalation also tells whom it escalates to, where that is an address (`key:ops` is told through Studio's inbox).
  const escalatedTo = notice.type === 'interrupt.escalated' && Array.isArray(notice.data.to) ? notice.data.to.filter(isAddress) : [];
  const email = [...configuredEmailRecipients(), ...routing.email, ...(forTool?.email ?? []), ...escalatedTo];
  const slack = [...(envSlack ? [envSlack] : []), ...routing.slack, ...(forTool?.slack ?? [])];
  return { email: unique(email, (address) => address.toLowerCase()), slack: unique(slack, (url) => url) };
}

function isAddress(value: unknown): value is string {
  return typeof value === 'string' && /^[^\s@:]+@[^\s@]+$/.test(value);
}

/** Each once, the first spelling kept (addresses compare without case). */
export function unique(values: string[], key: (value: string) => string): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const k = key(value);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
