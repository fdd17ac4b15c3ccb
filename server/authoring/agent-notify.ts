// Whom an agent's approvals are told about (docs/approvals.md, "Notifications and one-click
// links"): `defineDeepAgent({ notify })` adds addresses and a Slack webhook to those configured
// for every agent (STACKBONE_NOTIFY_EMAIL, STACKBONE_SLACK_WEBHOOK_URL), and a tool may add its
// own or be told to nobody. Checked when the agent is defined, so a typo stops start-up, not a
// notification at 3 a.m. Below the runtime: define.ts reads it.

/** Where notices go: email addresses, an incoming-webhook URL. */
interface NotifyTargets {
  email?: string | string[];
  /** Slack-compatible incoming-webhook URLs (secrets: keep them in env variables). */
  slack?: string | string[];
}

export interface NotifyConfig<ToolName extends string = string> extends NotifyTargets {
  /** Per tool: more targets for its approvals, or `false` to tell nobody of them (the env's targets included). */
  tools?: Partial<Record<ToolName, NotifyTargets | false>> & Record<string, NotifyTargets | false | undefined>;
}

/** The targets of an agent or a tool, checked and in lists. */
interface NotifyLists {
  email: string[];
  slack: string[];
}

export interface NotifyRouting extends NotifyLists {
  tools: Record<string, NotifyLists | false>;
}

/** An address as a mail server takes it: one `@`, no spaces, brackets, commas or quotes. */
const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;

function lists(agent: string, where: string, targets: NotifyTargets): NotifyLists {
  if (targets === null || typeof targets !== 'object' || Array.isArray(targets)) {
    throw new Error(`Agent "${agent}": ${where} is an object {email?, slack?}.`);
  }
  const unknown = Object.keys(targets).filter((key) => key !== 'email' && key !== 'slack' && !(where === 'notify' && key === 'tools'));
  if (unknown.length) throw new Error(`Agent "${agent}": ${where} has no "${unknown[0]}"; it takes email and slack${where === 'notify' ? ' and tools' : ''}.`);
  const email = targets.email === undefined ? [] : Array.isArray(targets.email) ? targets.email : [targets.email];
  for (const address of email) {
    if (typeof address !== 'string' || !EMAIL.test(address.trim())) {
      throw new Error(`Agent "${agent}": ${where}.email has ${JSON.stringify(address)}, which is not an email address (e.g. "desk@example.com").`);
    }
  }
  const slack = targets.slack === undefined ? [] : Array.isArray(targets.slack) ? targets.slack : [targets.slack];
  for (const url of slack) {
    let parsed: URL | undefined;
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
      throw new Error(`Agent "${agent}": ${where}.slack must be an incoming-webhook URL (https://hooks.slack.com/services/…).`);
    }
  }
  return { email: email.map((address) => address.trim()), slack };
}

/** An agent's notify option, checked; `toolNames`: its tools, when they are known at definition (MCP tools come later). */
export function notifyRouting(agent: string, notify: NotifyConfig | undefined, toolNames?: string[]): NotifyRouting {
  if (notify === undefined) return { email: [], slack: [], tools: {} };
  const own = lists(agent, 'notify', notify);
  const tools: Record<string, NotifyLists | false> = {};
  for (const [tool, targets] of Object.entries(notify.tools ?? {})) {
    if (toolNames && !toolNames.includes(tool)) throw new Error(`Agent "${agent}": notify.tools names "${tool}", which is not one of its tools.`);
    if (targets === undefined) continue;
    tools[tool] = targets === false ? false : lists(agent, `notify.tools.${tool}`, targets);
  }
  return { ...own, tools };
}
