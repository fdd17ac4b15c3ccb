'use client';
// What a person decided on a tool call, as a line under it in the transcript: "Approved with
// edits: Amount $19.99 → $15.00 · you · 13:34", "Rejected: “not yet” · in Studio · 13:35".
// It stays after a reload and shows in every tab (the decisions come with the thread).
import { CircleCheckIcon, CircleXIcon, Undo2Icon } from 'lucide-react';
import { fieldLabel, formatValue } from './format-value';
import type { JsonSchema } from './hooks/json-schema';
import type { DecisionRecord } from '@/server/contract';
import { useHydrated } from './use-hydrated';

/** Where a decision was made, as the person reading the chat says it. */
const WHO: Record<DecisionRecord['by']['source'], string> = {
  agui: 'you',
  studio: 'in Studio',
  hitl: 'through the API',
  cli: 'with the CLI',
  expiry: 'when it expired',
  server: 'by the server',
  queue: 'by a message sent now',
  mcp: 'in an MCP client',
  responses: 'through the Responses API',
  // Whom the link was minted for stays in the audit trail: the chat may be a customer's.
  link: 'through an emailed or Slack link',
};

/** One vote of a quorum, where it was cast, as the person reading the chat says it. */
const VOTE: Record<DecisionRecord['by']['source'], string> = {
  agui: 'you',
  studio: 'one in Studio',
  hitl: 'one through the API',
  cli: 'one with the CLI',
  expiry: 'the expiry',
  server: 'the server',
  queue: 'a message sent',
  mcp: 'one in an MCP client',
  responses: 'one through the Responses API',
  link: 'one by an emailed or Slack link',
};

/** "2 approvals: you, one by an emailed or Slack link": a quorum's every vote, in order. */
function votesInWords(votes: NonNullable<DecisionRecord['votes']>): string {
  const approvals = votes.filter((vote) => vote.status === 'approved').length;
  const rejections = votes.length - approvals;
  const counts = [
    approvals && `${approvals} ${approvals === 1 ? 'approval' : 'approvals'}`,
    rejections && `${rejections} ${rejections === 1 ? 'rejection' : 'rejections'}`,
  ]
    .filter(Boolean)
    .join(', ');
  const who = votes.map((vote) => `${VOTE[vote.source] ?? vote.source}${vote.status === 'denied' ? ' (rejected)' : ''}`).join(', ');
  return `${counts}: ${who}`;
}

export function DecisionLine({ decision, inputSchema }: { decision: DecisionRecord; inputSchema?: JsonSchema }) {
  const hydrated = useHydrated();
  const changes = decision.status === 'approved' ? changedFields(decision.argsAsked, decision.editedArgs, inputSchema) : [];
  const { icon, text } = wording(decision, changes);
  const time = new Date(decision.at);
  return (
    <p
      className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 border-t px-3 py-1.5 text-xs text-muted-foreground"
      data-testid="decision-line"
      data-status={decision.status}
    >
      {icon}
      <span className="font-medium text-foreground">{text}</span>
      <span aria-hidden>·</span>
      {decision.votes && decision.votes.length > 1 ? (
        <span data-testid="decision-votes">{votesInWords(decision.votes)}</span>
      ) : (
        <span>{WHO[decision.by.source] ?? decision.by.source}</span>
      )}
      <span aria-hidden>·</span>
      <time dateTime={decision.at}>{hydrated ? time.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : decision.at.slice(11, 16)}</time>
    </p>
  );
}

function wording(decision: DecisionRecord, changes: string[]) {
  const reason = decision.reason ? `: “${decision.reason}”` : '';
  if (decision.interruptReason === 'input_required' && decision.status !== 'cancelled') {
    return decision.status === 'approved'
      ? { icon: <CircleCheckIcon className="size-3.5 text-success" aria-hidden />, text: 'Answered' }
      : { icon: <CircleXIcon className="size-3.5 text-destructive" aria-hidden />, text: `Declined to answer${reason}` };
  }
  switch (decision.status) {
    case 'approved':
      return {
        icon: <CircleCheckIcon className="size-3.5 text-success" aria-hidden />,
        text: decision.expired
          ? 'Approved automatically: the request expired'
          : changes.length > 0
            ? `Approved with edits: ${changes.join(', ')}`
            : decision.editedArgs !== undefined
              ? 'Approved with edits'
              : 'Approved',
      };
    case 'denied':
      return {
        icon: <CircleXIcon className="size-3.5 text-destructive" aria-hidden />,
        text: decision.expired ? 'Rejected automatically: the request expired' : `Rejected${reason}`,
      };
    case 'cancelled':
      return { icon: <Undo2Icon className="size-3.5" aria-hidden />, text: `Withdrawn${reason}` };
  }
}

/** "Amount $19.99 → $15.00" for each argument the edit changed. */
function changedFields(asked: unknown, edited: unknown, schema?: JsonSchema): string[] {
  if (!isRecord(asked) || !isRecord(edited)) return [];
  const keys = [...new Set([...Object.keys(asked), ...Object.keys(edited)])];
  return keys
    .filter((key) => JSON.stringify(asked[key]) !== JSON.stringify(edited[key]))
    .map((key) => {
      const property = schema?.properties?.[key];
      return `${fieldLabel(key, property)} ${formatValue(asked[key], property)} → ${formatValue(edited[key], property)}`;
    });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
