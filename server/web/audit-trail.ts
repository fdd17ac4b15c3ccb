// A session's audit trail (docs/studio.md): its event log as a person reads it — each message,
// tool call, pause and decision, with who decided, from where and when, and the arguments as
// proposed and as approved; each run's end says what its model calls cost. A read-model of the
// log: nothing here is stored twice.
import type { DecisionActor, InterruptRecord } from '../store/pauses';
import type { RunSource, StoredEvent, TokenUsage } from '../store/events';
import { keyLabelOf, publicOwnerId } from '../credentials/open-dev-mode';
import { getStore } from '../store';
import { findAgent } from '../agents';
import { readableName } from '../authoring/readable-name';
import { agentTools, isOwnSession, scopedSessionId, sessionKeyOf, totalUsage } from '../runtime';

type AuditKind = 'run' | 'message' | 'tool-call' | 'tool-result' | 'progress' | 'pause' | 'decision' | 'grant' | 'state' | 'step' | 'context' | 'error';

export interface AuditEntry {
  seq: number;
  at: string;
  kind: AuditKind;
  /** One line for the reader. */
  summary: string;
  /** For a message: who wrote it and its text as written (markdown), which `summary` joins as "from: text". */
  message?: { from: string; text: string };
  /** For a decision: who decided, through which surface. */
  actor?: { source: DecisionActor['source']; surface: string; who: string };
  /** The event's own data (arguments, results, patches) for whoever wants the detail. */
  details?: Record<string, unknown>;
}

export interface AuditTrail {
  session: { id: string; agent: string; title: string | null; status: string; createdAt: string };
  /** The thread this one was forked from (docs/time-travel.md), and the forks made from it. */
  lineage: { parent: { id: string; atMessageId: string; mode: string } | null; forks: { id: string; title: string | null; createdAt: string }[] };
  entries: AuditEntry[];
}

/** Where a decision was made, as a person calls it. */
const SURFACE: Record<DecisionActor['source'], string> = {
  agui: 'chat',
  studio: 'Studio',
  cli: 'CLI',
  hitl: 'HTTP',
  expiry: 'expiry',
  server: 'server',
  queue: 'a message sent now',
  mcp: 'an MCP client',
  responses: 'the Responses API',
  link: 'a link',
};

/**
 * How a link reached whoever followed it, and who that was, from the recipient the link was
 * minted for (docs/approvals.md, "Notifications and one-click links"): "an emailed link",
 * desk@example.com.
 */
function linkActor(recipient: string | undefined): { surface: string; who: string } {
  if (recipient?.startsWith('email:')) return { surface: 'an emailed link', who: recipient.slice('email:'.length) };
  if (recipient === 'slack') return { surface: 'a link in Slack', who: 'whoever followed it in Slack' };
  return { surface: 'a link', who: recipient ?? 'whoever followed it' };
}

/** How a fork came to be, as a person calls it (docs/time-travel.md). */
const FORKED: Record<string, string> = { fork: 'Forked from', edit: 'Edited and resent from', regenerate: 'Regenerated from' };

/** What started a run, as a person calls it. */
const RUN_SOURCE: Record<RunSource, string> = {
  agui: 'a message in the chat',
  openai: 'an app using the OpenAI-compatible API',
  anthropic: 'an app using the Anthropic-compatible API',
  hitl: 'a decision made in Studio, the CLI or the HTTP API',
  server: 'the server',
  mcp: 'an app using the MCP server',
};

/** Who an owner id is, as a person calls it: the one owner of open dev mode is whoever sits at
 *  this computer (docs/security.md, "Modes"); otherwise an API key — by its name, else by its
 *  re-keyed id, never the hash it is stored as (docs/security.md, "Links and deliveries") — or a browser. */
function ownerLabel(ownerId: string | undefined): string {
  if (!ownerId) return 'the server';
  if (ownerId === 'local') return 'you (this computer)';
  const [kind, id = ''] = ownerId.split(':');
  if (kind === 'key') return keyLabelOf(ownerId)?.name ?? `API key ${publicOwnerId(ownerId).slice('key:'.length, 'key:'.length + 8)}`;
  if (kind === 'browser') return `browser ${id.slice(0, 8)}`;
  return ownerId;
}

/** The trail of the owner's session `threadId` (its key); null for an unknown one (another owner's is one). */
export async function loadAuditTrail(ownerId: string, threadId: string): Promise<AuditTrail | null> {
  const store = getStore();
  const session = await store.getSession(scopedSessionId(ownerId, threadId));
  if (!isOwnSession(session, { ownerId })) return null;
  const [events, forks] = await Promise.all([store.readEvents(session.id), store.listSessions(ownerId, { parentId: session.id, limit: 50 })]);
  const forked = events.find((stored) => stored.event.type === 'thread_forked')?.event;
  return {
    session: { id: threadId, agent: session.agent, title: session.title, status: session.status, createdAt: session.createdAt.toISOString() },
    lineage: {
      parent: forked?.type === 'thread_forked' ? { id: forked.from.threadId, atMessageId: forked.from.atMessageId, mode: forked.from.mode } : null,
      forks: forks.map((fork) => ({ id: sessionKeyOf(fork.id), title: fork.title, createdAt: fork.createdAt.toISOString() })),
    },
    entries: auditEntries(events, toolTitles(session.agent)),
  };
}

/**
 * A tool as the chat names it — its `title`, else its name in words ("refundPayment" → "Refund
 * payment") — in quotes: the trail and the chat speak of the same call the same way.
 */
function toolTitles(agentName: string): (toolName: string) => string {
  const agent = findAgent(agentName);
  const tools = agent ? agentTools(agent) : {};
  return (toolName) => `“${tools[toolName]?.title?.trim() || readableName(toolName)}”`;
}

/** What started a run, as a person calls it: a run a decision started says through which channel that decision came. */
function runStarter(source: RunSource, decidedBy: DecisionActor | undefined): string {
  if (source !== 'hitl' || !decidedBy) return RUN_SOURCE[source] ?? source;
  const surface = decidedBy.source === 'link' ? linkActor(decidedBy.recipient).surface : (SURFACE[decidedBy.source] ?? decidedBy.source);
  return `a decision made through ${surface}`;
}

/**
 * Who decided, for each run a decision started (by the run's seq): such a run is logged before
 * the decision it carries out, so its entry looks ahead to the first decision inside it.
 */
function decisionsStartingRuns(events: StoredEvent[]): Map<number, DecisionActor> {
  const starters = new Map<number, DecisionActor>();
  let run: number | undefined;
  for (const { seq, event } of events) {
    if (event.type === 'run_started') run = event.source === 'hitl' ? seq : undefined;
    else if (event.type === 'interrupt_decided' && run !== undefined) {
      starters.set(run, event.decision.by);
      run = undefined;
    }
  }
  return starters;
}

function auditEntries(events: StoredEvent[], title: (toolName: string) => string): AuditEntry[] {
  const interrupts = new Map<string, InterruptRecord>();
  // The usage of the current run's model steps, its delegated tasks' included.
  let runUsage: TokenUsage[] = [];
  const withCost = (summary: string) => (runUsage.length ? `${summary} — ${tokensLine(runUsage)}` : summary);
  const entries: AuditEntry[] = [];
  const add = (stored: StoredEvent, entry: Omit<AuditEntry, 'seq' | 'at'>) => entries.push({ seq: stored.seq, at: stored.at, ...entry });
  const starters = decisionsStartingRuns(events);
  for (const stored of events) {
    const { event } = stored;
    const scope = 'scope' in event && event.scope ? ` (in ${event.scope.replace(/^task:/, 'task ')})` : '';
    switch (event.type) {
      case 'run_started':
        runUsage = [];
        add(stored, {
          kind: 'run',
          summary: `Run started by ${runStarter(event.source, starters.get(stored.seq))}${event.retry ? ` (retry, attempt ${event.retry.attempt})` : ''}`,
          details: { runId: event.runId, source: event.source },
        });
        break;
      case 'message_added':
        add(stored, messageEntry(`${capitalise(event.message.role)}${scope}`, event.message.content, event.message.id, event.message.role !== 'tool'));
        break;
      case 'assistant_step':
        if (event.usage) runUsage.push(event.usage);
        if (event.message.content) add(stored, messageEntry(`Assistant${scope}`, event.message.content, event.message.id, true));
        for (const call of event.message.toolCalls ?? [])
          add(stored, { kind: 'tool-call', summary: `The agent called ${title(call.name)}${scope}`, details: { toolCallId: call.id, arguments: call.input } });
        break;
      case 'tool_started':
        // The call and its result say it; attempts show in the result's details. A call that ran
        // inside a grant says which: nobody was asked (docs/approvals.md).
        if (event.grantId)
          add(stored, {
            kind: 'grant',
            summary: `${title(event.toolName)}${scope} ran without a pause, inside grant ${event.grantId}`,
            details: { toolCallId: event.toolCallId, grantId: event.grantId, attempt: event.attempt },
          });
        break;
      case 'thread_forked':
        add(stored, {
          kind: 'run',
          summary: `${FORKED[event.from.mode]} thread ${event.from.threadId} at message ${event.from.atMessageId}; ${event.inherited.length} tool ${event.inherited.length === 1 ? 'effect' : 'effects'} above happened there and are not run again here`,
          details: { from: event.from, inherited: event.inherited },
        });
        break;
      case 'tool_progress':
        add(stored, {
          kind: 'progress',
          summary: `${title(event.toolName)} reported progress${scope}`,
          details: { toolCallId: event.toolCallId, output: event.output },
        });
        break;
      case 'tool_result':
        add(stored, {
          kind: 'tool-result',
          summary: `${title(event.message.toolName)}${scope} ${event.status === 'denied' ? 'did not run: denied' : event.status === 'cancelled' ? 'did not run: cancelled' : event.message.isError ? 'failed' : 'returned'}`,
          details: { toolCallId: event.message.toolCallId, result: event.output ?? event.message.content },
        });
        break;
      case 'interrupts_opened':
        for (const record of event.interrupts) {
          interrupts.set(record.id, record);
          add(stored, {
            kind: 'pause',
            summary: `${record.reason === 'input_required' ? 'Asked' : 'Approval requested'}: ${record.message}`,
            details: {
              interruptId: record.id,
              toolName: record.toolName,
              toolCallId: record.toolCallId,
              arguments: record.input,
              ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
            },
          });
        }
        break;
      case 'interrupt_decided': {
        const record = interrupts.get(event.interruptId);
        const { decision } = event;
        const verb =
          decision.status === 'approved'
            ? decision.editedArgs !== undefined
              ? 'Approved with edits'
              : record?.reason === 'input_required'
                ? 'Answered'
                : 'Approved'
            : decision.status === 'denied'
              ? record?.reason === 'input_required'
                ? 'Declined'
                : 'Rejected'
              : 'Cancelled';
        const link = decision.by.source === 'link' ? linkActor(decision.by.recipient) : undefined;
        const who = link?.who ?? ownerLabel(decision.by.ownerId);
        // "Approved sendInvoice through an emailed link (desk@example.com)"
        const through = link ? ` through ${link.surface}${decision.by.recipient?.startsWith('email:') ? ` (${link.who})` : ''}` : '';
        add(stored, {
          kind: 'decision',
          summary: `${verb}${record ? ` ${title(record.toolName)}` : ''}${through}${decision.reason ? `: “${decision.reason}”` : ''}${decision.expired ? ' (expired)' : ''}`,
          actor: { source: decision.by.source, surface: link?.surface ?? SURFACE[decision.by.source] ?? decision.by.source, who },
          details: {
            interruptId: event.interruptId,
            ...(record ? { arguments: record.input } : {}),
            ...(decision.editedArgs !== undefined ? { editedArguments: decision.editedArgs } : {}),
            ...(decision.payload !== undefined ? { payload: decision.payload } : {}),
          },
        });
        break;
      }
      case 'interrupt_voted': {
        // A vote short of the quorum (docs/approvals.md, "Quorum and separation of duties"); the one that reaches it is the decision.
        const record = interrupts.get(event.interruptId);
        const { vote } = event;
        add(stored, {
          kind: 'decision',
          summary: `Voted to ${vote.status === 'approved' ? 'approve' : 'reject'}${record ? ` ${title(record.toolName)}` : ''}${vote.by.keyName ? ` (${vote.by.keyName})` : ''}${vote.reason ? `: “${vote.reason}”` : ''}`,
          actor: { source: vote.by.source, surface: SURFACE[vote.by.source] ?? vote.by.source, who: ownerLabel(vote.by.ownerId) },
          details: {
            interruptId: event.interruptId,
            ...(record?.quorum ? { quorum: record.quorum } : {}),
            ...(vote.payload !== undefined ? { payload: vote.payload } : {}),
          },
        });
        break;
      }
      case 'interrupt_escalated': {
        const record = interrupts.get(event.interruptId);
        add(stored, {
          kind: 'pause',
          summary: `Nobody decided${record ? ` ${title(record.toolName)}` : ''} in time: escalated${event.to.length ? ` to ${event.to.join(', ')}` : ''} (level ${event.level}); it waits until ${event.expiresAt}`,
          details: { interruptId: event.interruptId, level: event.level, to: event.to, expiresAt: event.expiresAt },
        });
        break;
      }
      case 'interrupt_reminded': {
        const record = interrupts.get(event.interruptId);
        add(stored, {
          kind: 'pause',
          summary: `Reminder: ${record ? `${title(record.toolName)} is` : 'a decision is'} still waiting${record?.expiresAt ? ` and expires at ${record.expiresAt}` : ''}`,
          details: { interruptId: event.interruptId },
        });
        break;
      }
      case 'grant_added': {
        const { grant } = event;
        const reach =
          grant.scope === 'session'
            ? 'for the rest of this session'
            : grant.scope === 'time'
              ? `until ${grant.expiresAt}`
              : `for calls with ${JSON.stringify(grant.match)}`;
        add(stored, {
          kind: 'grant',
          summary: `Allowed ${title(grant.toolName)} ${reach} (grant ${grant.id})`,
          actor: { source: grant.by.source, surface: SURFACE[grant.by.source] ?? grant.by.source, who: ownerLabel(grant.by.ownerId) },
          details: { ...grant },
        });
        break;
      }
      case 'grant_revoked':
        add(stored, {
          kind: 'grant',
          summary: `Revoked grant ${event.grantId}`,
          actor: { source: event.by.source, surface: SURFACE[event.by.source] ?? event.by.source, who: ownerLabel(event.by.ownerId) },
          details: { grantId: event.grantId },
        });
        break;
      case 'state_patched':
        add(stored, {
          kind: 'state',
          summary: `Shared state changed (${event.patch.map((operation) => operation.path).join(', ')})`,
          details: { patch: event.patch },
        });
        break;
      case 'context_compacted': {
        const { compaction } = event;
        if (compaction.usage) runUsage.push(compaction.usage);
        // docs/models.md, "Long threads": the messages stay above; the model is sent this instead from here on.
        add(stored, {
          kind: 'context',
          summary: `${compaction.method === 'summary' ? 'Earlier messages summarised' : 'Earlier tool results trimmed'}${scope} (about ${compaction.tokensBefore.toLocaleString('en-US')} → ${compaction.tokensAfter.toLocaleString('en-US')} tokens): ${compaction.summary}`,
          details: { ...compaction },
        });
        break;
      }
      case 'step_started':
        add(stored, { kind: 'step', summary: `Delegated to ${event.stepName}` });
        break;
      case 'step_finished':
        add(stored, { kind: 'step', summary: `${event.stepName} finished` });
        break;
      case 'run_finished':
        add(stored, {
          kind: 'run',
          summary: withCost(
            event.outcome.type === 'interrupt'
              ? 'Run paused for a decision'
              : event.outcome.type === 'cancelled'
                ? `Run stopped${event.stop ? ` (by ${SURFACE[event.stop.by.source as DecisionActor['source']] ?? event.stop.by.source})` : ''}`
                : 'Run finished',
          ),
          details: { runId: event.runId, ...costOf(runUsage) },
        });
        break;
      case 'run_failed':
        add(stored, { kind: 'error', summary: withCost(`Run failed (${event.code}): ${event.message}`), details: { runId: event.runId, ...costOf(runUsage) } });
        break;
    }
  }
  return entries;
}

/** The run's usage for the entry's details; nothing when no step reported any. */
function costOf(usage: TokenUsage[]): { usage?: ReturnType<typeof totalUsage> } {
  return usage.length ? { usage: totalUsage(usage) } : {};
}

/** "1,234 tokens in, 56 out": what a run's model calls cost, as a person reads it. */
function tokensLine(usage: TokenUsage[]): string {
  const { inputTokens, outputTokens } = totalUsage(usage);
  return `${inputTokens.toLocaleString('en-US')} tokens in, ${outputTokens.toLocaleString('en-US')} out`;
}

/** A message entry; `written`: the text is what a person or the model wrote (a frontend tool's
 *  result is data), so the trail shows it as markdown. */
function messageEntry(from: string, text: string, id: string, written: boolean): Omit<AuditEntry, 'seq' | 'at'> {
  return { kind: 'message', summary: `${from}: ${text}`, ...(written ? { message: { from, text } } : {}), details: { id } };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
