'use client';
// The conversation: user and assistant turns (the assistant's text as markdown, completed while
// it streams: components/markdown.tsx), each assistant tool call a collapsed line with
// its true status and, once decided, the decision under it; the approval card of a call that
// waits on a person right under the call. The list follows new text while the reader is at
// the bottom and leaves them be once they scroll up. Screen readers hear whole messages from
// the chat's announcer, not every streamed token (components/announcer.tsx).
import type { AssistantMessage, Message, ToolMessage } from '@ag-ui/client';
import { AlertCircleIcon, ChevronLeftIcon, ChevronRightIcon, CircleSlashIcon, GitBranchIcon, Loader2Icon, NavigationIcon, RefreshCwIcon } from 'lucide-react';
import Link from 'next/link';
import { Fragment, useLayoutEffect, useRef, type ReactNode } from 'react';
import { ApprovalCard } from './approval-card';
import { CompactionNotice } from './compaction-notice';
import { DecisionLine } from './decision-line';
import type { PendingInterrupt } from './hooks/useAgent';
import { batchPosition } from './interrupt-panel';
import { ReasoningBlock } from './reasoning-block';
import { Markdown } from './markdown';
import { ToolCallCard, type ToolCallStatus, type ToolInfo } from './tool-call';
import { SourcesList } from './sources-list';
import { UserBubble } from './user-bubble';
import {
  SOURCES,
  TOOL_PROGRESS,
  type ContextCompactedValue,
  type DecisionRecord,
  type FailedReply,
  type ReplyVersions,
  type SourcesContent,
} from '@/server/contract';

export interface MessageListProps {
  messages: readonly Message[];
  running: boolean;
  streamingMessageId: string | null;
  /** The reasoning message receiving streamed text right now. */
  streamingReasoningId?: string | null;
  /** Subagent steps in progress. */
  activeSteps: readonly string[];
  /** Open interrupts; each renders next to the tool call it belongs to. */
  interrupts?: readonly PendingInterrupt[];
  /** Decided interrupts, by tool call. */
  decisions?: Readonly<Record<string, DecisionRecord>>;
  /** What the agent says about a tool (title, input schema). */
  toolInfo?: (name: string) => ToolInfo | undefined;
  /** Tool calls a stop cut (never started, or cut off while running). */
  stoppedToolCallIds?: readonly string[];
  /** Where older turns were compacted: a notice after each one's last message (docs/models.md, "Long threads"). */
  compactions?: readonly ContextCompactedValue[];
  /** Assistant messages a stop cut short. */
  stoppedIds?: ReadonlySet<string>;
  /** Assistant messages a failed turn cut short, by id (docs/turn-control.md, "Retry"). */
  failedReplies?: ReadonlyMap<string, FailedReply>;
  /** Guidance sent to the running turn that it has not taken in yet. */
  pendingSteers?: readonly string[];
  /** The turn is being run again after a failure. */
  retrying?: boolean;
  /** What an empty conversation shows (a line of text, or prompts to start with). */
  empty?: ReactNode;
  /** Under the last message: the last turn's error, with Retry. */
  footer?: ReactNode;
  /** Calls whose effects happened in the thread this one was forked from (docs/time-travel.md). */
  inheritedToolCallIds?: ReadonlySet<string>;
  /** Edit-and-resend a user message: a new thread with the new text in its place. Absent while a turn runs. */
  onEdit?: (messageId: string, text: string) => void;
  /** Regenerate an assistant reply: a new thread where it is asked again. Absent while a turn runs. */
  onRegenerate?: (messageId: string) => void;
  /** A thread of its own from a reply: up to and with it, where the conversation can go another way. Absent while a turn runs. */
  onBranch?: (messageId: string) => void;
  /** Why the last edit or regenerate failed. */
  forkError?: string | null;
  /** Replies regenerated, by the message they show on: "‹ 2/3 ›" switches between their threads (docs/time-travel.md). */
  versions?: ReadonlyMap<string, ReplyVersions>;
  /** The page of a thread of this agent: a version's. */
  threadHref?: (threadId: string) => string;
}

export function MessageList(props: MessageListProps) {
  const { messages, running, streamingMessageId, activeSteps, interrupts = [], pendingSteers = [], empty, footer } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottomRef = useRef(true);
  const last = messages.at(-1);
  const lastLength = last && 'content' in last && typeof last.content === 'string' ? last.content.length : 0;

  // Follow the conversation as it grows (text streaming in too), unless the reader scrolled up.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && atBottomRef.current) element.scrollTop = element.scrollHeight;
  }, [messages.length, lastLength, activeSteps.length, pendingSteers.length, footer, running]);

  const calledIds = toolCallIds(messages);
  const visible = messages.filter((message) => isShown(message, calledIds));
  // The card to decide next takes focus; the others wait their turn.
  const current = interrupts.find((interrupt) => !interrupt.resolution || interrupt.resolution.problems.length > 0);
  const renderMessage = (message: Message) => {
    switch (message.role) {
      case 'user':
        return <UserBubble key={message.id} message={message} onEdit={props.onEdit} />;
      case 'assistant':
        return (
          <AssistantTurn
            key={message.id}
            {...props}
            message={message}
            interrupts={interrupts}
            current={current}
            streaming={message.id === streamingMessageId}
            stopped={props.stoppedIds?.has(message.id) ?? false}
            failure={props.failedReplies?.get(message.id)}
            results={toolResults(messages)}
            progress={toolProgress(messages)}
          />
        );
      case 'activity':
        // Only the sources a step cited are shown (isShown), right after its reply.
        return <SourcesList key={message.id} content={message.content as unknown as SourcesContent} />;
      case 'reasoning':
        // Right before the assistant message it led to, as the thread holds it.
        return <ReasoningBlock key={message.id} message={message} streaming={message.id === props.streamingReasoningId} />;
      case 'tool':
        // A result whose call is not in the list (e.g. trimmed history): show it plainly.
        return (
          <ToolCallCard
            key={message.id}
            call={{ id: message.toolCallId, type: 'function', function: { name: 'tool', arguments: '' } }}
            result={message}
            status={message.error ? 'failed' : 'done'}
          />
        );
      default:
        return (
          <div key={message.id} className="text-sm text-muted-foreground" data-testid={`message-${message.role}`}>
            {'content' in message && typeof message.content === 'string' ? message.content : null}
          </div>
        );
    }
  };
  const noticesAfter = compactionPlaces(messages, visible, props.compactions ?? []);
  return (
    <div
      ref={scrollRef}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain"
      data-testid="message-list"
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottomRef.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
      }}
    >
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-3 py-4 sm:px-6">
        {visible.length === 0 && (empty ?? <p className="text-muted-foreground">No messages yet.</p>)}
        {visible.map((message) => (
          <Fragment key={message.id}>
            {renderMessage(message)}
            {noticesAfter.get(message.id)?.map((compaction) => (
              <CompactionNotice key={compaction.at} compaction={compaction} />
            ))}
          </Fragment>
        ))}
        {pendingSteers.map((text, index) => (
          <div
            key={`${index}-${text}`}
            className="ml-auto max-w-[85%] rounded-2xl border border-dashed border-primary/50 px-4 py-2 text-sm"
            data-testid="pending-steer"
          >
            <span className="mb-0.5 flex items-center gap-1 text-xs text-muted-foreground">
              <NavigationIcon className="size-3" aria-hidden /> Guidance for this turn — the agent reads it at its next step
            </span>
            <span className="whitespace-pre-wrap">{text}</span>
          </div>
        ))}
        {activeSteps.map((step, index) => (
          <Working key={`${step}-${index}`} testId="active-step">
            Handed to the <strong className="font-medium text-foreground">{step}</strong> helper…
          </Working>
        ))}
        {running && !streamingMessageId && activeSteps.length === 0 && <Working testId="thinking">{props.retrying ? 'Trying again…' : 'Working…'}</Working>}
        {props.forkError && (
          <p className="text-sm text-destructive" role="alert" data-testid="fork-error">
            {props.forkError}
          </p>
        )}
        {footer}
      </div>
    </div>
  );
}

function Working({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <div className="flex items-center gap-2 text-sm text-muted-foreground" data-testid={testId}>
      <Loader2Icon className="size-4 animate-spin" aria-hidden /> {children}
    </div>
  );
}

interface AssistantTurnProps extends MessageListProps {
  message: AssistantMessage;
  results: Map<string, ToolMessage>;
  progress: Map<string, unknown>;
  interrupts: readonly PendingInterrupt[];
  current: PendingInterrupt | undefined;
  streaming: boolean;
  stopped: boolean;
  failure: FailedReply | undefined;
}

function AssistantTurn({
  message,
  results,
  progress,
  interrupts,
  current,
  running,
  streaming,
  stopped,
  failure,
  decisions,
  toolInfo,
  stoppedToolCallIds,
  inheritedToolCallIds,
  onRegenerate,
  onBranch,
  versions,
  threadHref,
}: AssistantTurnProps) {
  const replyVersions = versions?.get(message.id);
  const turn = (
    <div
      className="flex flex-col gap-2"
      data-testid="message-assistant"
      data-streaming={streaming || undefined}
      data-stopped={stopped || undefined}
      data-failed={failure ? true : undefined}
    >
      {message.content ? (
        <div data-reply-text={message.id}>
          <Markdown text={message.content} streaming={streaming} />
        </div>
      ) : null}
      {message.toolCalls?.map((call) => {
        const interrupt = interrupts.find((candidate) => candidate.toolCallId === call.id);
        const decision = decisions?.[call.id];
        const result = results.get(call.id);
        const tool = toolInfo?.(call.function.name);
        return (
          <div key={call.id} className="flex flex-col gap-2">
            <ToolCallCard
              call={call}
              result={result}
              progress={progress.get(call.id)}
              status={statusOf({ result, decision, interrupt: interrupt?.reason, running, cut: Boolean(stoppedToolCallIds?.includes(call.id)), stopped })}
              tool={tool}
              ranWith={decision?.status === 'approved' ? decision.editedArgs : undefined}
              decision={decision && <DecisionLine decision={decision} inputSchema={tool?.inputSchema} />}
            />
            {inheritedToolCallIds?.has(call.id) && (
              <span className="inline-flex items-center gap-1 text-xs text-muted-foreground" data-testid="inherited-effect">
                <GitBranchIcon className="size-3" aria-hidden /> Happened in the original thread; not run again here
              </span>
            )}
            {interrupt && (
              <ApprovalCard
                interrupt={interrupt}
                busy={running}
                batch={batchPosition(interrupts, interrupt)}
                inputSchema={tool?.inputSchema}
                current={interrupt === current}
              />
            )}
          </div>
        );
      })}
      {stopped && (
        <span className="inline-flex items-center gap-1 text-xs text-muted-foreground" data-testid="message-stopped">
          <CircleSlashIcon className="size-3.5" aria-hidden /> Stopped
        </span>
      )}
      {failure && !stopped && (
        <span className="inline-flex flex-wrap items-center gap-1 text-xs text-destructive" data-testid="message-failed" title={failure.message}>
          <AlertCircleIcon className="size-3.5" aria-hidden /> Failed — this reply was cut short
          <span className="text-muted-foreground">
            ({failure.code}
            {failure.reference ? `, ref ${failure.reference}` : ''})
          </span>
        </span>
      )}
    </div>
  );
  // Beside the reply, not in it: the reply's text stays the reply's. While a turn runs the actions
  // stay in their place, disabled (onRegenerate and onBranch are absent then): every reply above
  // would otherwise move up and back down with each turn.
  return (
    <div className="flex flex-col gap-1">
      {turn}
      {((replyVersions && threadHref) || (message.content && !streaming)) && (
        <div className="flex items-center gap-1">
          {replyVersions && threadHref && <VersionSwitcher versions={replyVersions} href={threadHref} />}
          {message.content && !streaming && (
            <>
              <ReplyAction
                testId="regenerate-button"
                icon={<RefreshCwIcon className="size-3" aria-hidden />}
                label="Regenerate"
                title={onRegenerate ? 'Regenerate this reply: a new version, kept beside this one' : 'Regenerate once the agent is free'}
                onClick={onRegenerate && (() => onRegenerate(message.id))}
              />
              <ReplyAction
                testId="branch-button"
                icon={<GitBranchIcon className="size-3" aria-hidden />}
                label="New thread from here"
                shortOnPhones
                title={onBranch ? 'A new thread from here, with this conversation up to this reply' : 'Branch once the agent is free'}
                onClick={onBranch && (() => onBranch(message.id))}
              />
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** One of a reply's actions: in its place, disabled while a turn runs (no `onClick` then). */
function ReplyAction({
  testId,
  icon,
  label,
  title,
  onClick,
  shortOnPhones = false,
}: {
  testId: string;
  icon: ReactNode;
  label: string;
  title: string;
  onClick: (() => void) | undefined;
  shortOnPhones?: boolean;
}) {
  return (
    <button
      type="button"
      className="inline-flex w-fit items-center gap-1 rounded-md px-1.5 py-0.5 text-xs text-muted-foreground hover:bg-accent disabled:pointer-events-none disabled:opacity-40"
      title={title}
      aria-label={shortOnPhones ? label : undefined}
      data-testid={testId}
      disabled={!onClick}
      onClick={onClick}
    >
      {icon} <span className={shortOnPhones ? 'max-sm:sr-only' : undefined}>{label}</span>
    </button>
  );
}

/** "‹ 2/3 ›": which version of a regenerated reply this is, and the way to the others, in place. */
function VersionSwitcher({ versions, href }: { versions: ReplyVersions; href: (threadId: string) => string }) {
  const index = versions.threads.indexOf(versions.current);
  const step = (by: number) => versions.threads[index + by];
  const arrow = (by: number, label: string, icon: ReactNode) => {
    const target = step(by);
    return target ? (
      <Link
        href={href(target)}
        className="rounded p-0.5 hover:bg-accent hover:text-foreground"
        aria-label={label}
        data-testid={`version-${by < 0 ? 'previous' : 'next'}`}
      >
        {icon}
      </Link>
    ) : (
      <span className="p-0.5 opacity-40" aria-hidden>
        {icon}
      </span>
    );
  };
  return (
    <nav className="inline-flex w-fit items-center gap-0.5 text-xs text-muted-foreground" aria-label="Versions of this reply" data-testid="reply-versions">
      {arrow(-1, 'Previous version', <ChevronLeftIcon className="size-3.5" aria-hidden />)}
      <span className="tabular-nums" data-testid="reply-version">
        {index + 1}/{versions.threads.length}
      </span>
      {arrow(1, 'Next version', <ChevronRightIcon className="size-3.5" aria-hidden />)}
    </nav>
  );
}

/** A call's true status: what its result, the person's decision, the run and a stop say. */
function statusOf({
  result,
  decision,
  interrupt,
  running,
  cut,
  stopped,
}: {
  result?: ToolMessage;
  decision?: DecisionRecord;
  /** The reason of the open interrupt holding the call, if one does. */
  interrupt: string | undefined;
  running: boolean;
  /** A stop cut this call (the server says so). */
  cut: boolean;
  /** A stop cut the message it is in (this tab saw it). */
  stopped: boolean;
}): ToolCallStatus {
  if (decision?.status === 'denied') return 'rejected';
  if (decision?.status === 'cancelled') return 'withdrawn';
  if (cut) return 'stopped';
  if (result) return result.error ? 'failed' : 'done';
  if (interrupt) return interrupt === 'input_required' ? 'question' : 'approval';
  if (running) return 'running';
  return stopped ? 'stopped' : 'waiting';
}

function toolResults(messages: readonly Message[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message);
  return results;
}

/** The latest preliminary output of each running tool: the server's tool-progress activity messages. */
function toolProgress(messages: readonly Message[]): Map<string, unknown> {
  const progress = new Map<string, unknown>();
  for (const message of messages) {
    if (message.role !== 'activity' || message.activityType !== TOOL_PROGRESS) continue;
    const content = message.content as { toolCallId?: unknown; output?: unknown };
    if (typeof content.toolCallId === 'string') progress.set(content.toolCallId, content.output);
  }
  return progress;
}

function toolCallIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ids.add(call.id);
  return ids;
}

/** Tool results render inside their call's card; of activity, only a step's sources show; reasoning with no text (kept by the provider to itself) has nothing to show. */
function isShown(message: Message, calledIds: Set<string>): boolean {
  if (message.role === 'activity') return message.activityType === SOURCES && Array.isArray((message.content as { sources?: unknown }).sources);
  if (message.role === 'reasoning') return Boolean(message.content);
  if (message.role === 'tool') return !calledIds.has(message.toolCallId);
  if (message.role === 'assistant') return Boolean(message.content) || Boolean(message.toolCalls?.length);
  return true;
}

/**
 * Each compaction's notice goes after the shown message its last message is in: a tool result
 * shows inside its call's turn, so the notice follows that turn. Keyed by the shown message's id.
 */
function compactionPlaces(
  messages: readonly Message[],
  visible: readonly Message[],
  compactions: readonly ContextCompactedValue[],
): Map<string, ContextCompactedValue[]> {
  const shown = new Set(visible.map((message) => message.id));
  const placeOf = new Map<string, string>();
  let lastShown: string | undefined;
  for (const message of messages) {
    if (shown.has(message.id)) lastShown = message.id;
    if (lastShown) placeOf.set(message.id, lastShown);
  }
  const places = new Map<string, ContextCompactedValue[]>();
  for (const compaction of compactions) {
    const place = placeOf.get(compaction.throughMessageId);
    if (place) places.set(place, [...(places.get(place) ?? []), compaction]);
  }
  return places;
}
