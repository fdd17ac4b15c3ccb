'use client';
// A conversation with one agent on one thread: a compact header (the agent, what the thread
// is doing, its audit trail), the messages with approval cards next to the tool calls waiting
// on a person, and the composer always at the bottom; for agents with a task list or draft,
// the planner beside it (a sheet on narrow screens). All rendered live from useAgent.
import type { Interrupt, Message } from '@ag-ui/client';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircleIcon, GitBranchIcon, HistoryIcon, ListChecksIcon, RotateCcwIcon } from 'lucide-react';
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { displayNameOf } from './agent-name';
import { Announcer } from './announcer';
import { BROWSER_TOOL_TITLES, useBrowserTools } from './browser-tools';
import { Composer } from './composer';
import type { ContextCompactedValue, DecisionRecord, FailedReply, ForkParent, QueueItem, ReplyVersions } from '@/server/contract';
import { findToolCall, isDecided, waitsOnOthers } from './hooks/agent-store';
import { useAgent, type AgentError, type FrontendTool, type PendingInterrupt } from './hooks/useAgent';
import { MessageQueue } from './message-queue';
import { ModelPicker } from './model-picker';
import { InterruptPanel } from './interrupt-panel';
import { MessageList } from './message-list';
import { PlannerPanel, taskCount } from './planner-panel';
import { RunStatus } from './run-status';
import type { ToolInfo } from './tool-call';
import { Button } from './ui/button';
import { Sheet, SheetContent, SheetTrigger } from './ui/sheet';
import { UndoOffers, useFork, type UndoOfferView } from './time-travel';
import { useViewer } from './viewer';
import type { AgentCard } from '@/server/web/agents';

/** What the chat needs to know about its agent: plain data from the server. */
export type ChatAgent = AgentCard;

export interface ChatProps {
  agent: ChatAgent;
  threadId: string;
  initialMessages?: Message[];
  initialState?: Record<string, unknown>;
  /** The last run's failure as the server recorded it. */
  initialError?: AgentError | null;
  /** Interrupts still open on the server: their cards are back after a refresh. */
  initialInterrupts?: Interrupt[];
  interruptedRunId?: string | null;
  /** A run still going on the server when the page was rendered: the chat re-joins it. */
  activeRunId?: string | null;
  /** Messages waiting for their turn when the page was rendered. */
  initialQueue?: QueueItem[];
  /** Decisions made on the thread and the calls a stop cut, when the page was rendered (docs/hitl.md, "Decisions in the chat"). */
  initialDecisions?: DecisionRecord[];
  initialStoppedToolCallIds?: string[];
  /** Replies failed turns cut short, when the page was rendered (docs/turn-control.md, "Retry"). */
  initialFailedReplies?: FailedReply[];
  /** Where older turns were compacted, when the page was rendered (docs/models.md, "Long threads"). */
  initialCompactions?: ContextCompactedValue[];
  /** The thread's model when the page was rendered (docs/models.md, "Choosing a model"). */
  initialModel?: string;
  /** Where the page's thread stands in the session stream: the chat is live from there on. */
  cursor?: string;
  tools?: FrontendTool[];
  /** Called once the server has the thread (its first run started). */
  onThreadStarted?: () => void;
  /** At the start of the header: the phone layout's conversations drawer. */
  navigation?: ReactNode;
  /** The thread this one was forked from (docs/time-travel.md). */
  parent?: ForkParent | null;
  /** Calls whose effects happened in the parent thread: shown as such. */
  inheritedToolCallIds?: string[];
  /** Effects the parent made after the fork point that this thread can undo (docs/time-travel.md). */
  undoOffers?: UndoOfferView[];
  /** Replies regenerated, with every version's thread (docs/time-travel.md, "Regenerate"). */
  versions?: readonly ReplyVersions[];
}

export function Chat({
  agent,
  tools,
  onThreadStarted,
  navigation,
  parent,
  inheritedToolCallIds,
  undoOffers,
  initialFailedReplies,
  versions,
  ...thread
}: ChatProps) {
  const { threadId } = thread;
  const viewer = useViewer();
  const fork = useFork(agent.name, threadId);
  const inherited = useMemo(() => new Set(inheritedToolCallIds ?? []), [inheritedToolCallIds]);

  // The page's own tools (a confirm dialog, the browser's clock) go with every run, beside the caller's.
  const browser = useBrowserTools();
  const allTools = useMemo(() => [...(tools ?? []), ...browser.tools], [tools, browser.tools]);
  // The thread as the server rendered it (first paint): the hook continues from there.
  const chat = useAgent({ agent: agent.name, ...thread, tools: allTools });
  const running = chat.status === 'running';
  const feedback = useTurnFeedback(chat, initialFailedReplies);
  // A card sits under its tool call; one whose call is not in this conversation (raised in a
  // subagent's) goes in the panel above the composer.
  const versionsByMessage = useMemo(() => versionsOnReplies(chat.messages, versions ?? []), [chat.messages, versions]);
  const unplaced = chat.interrupts.filter((interrupt) => !interrupt.toolCallId || !findToolCall(chat.messages, interrupt.toolCallId));
  const announcedRef = useRef(chat.threadExists);
  const name = displayNameOf(agent);
  // The page's own tools are named as the server's are (components/browser-tools.tsx).
  const toolInfo = useCallback(
    (tool: string): ToolInfo | undefined => agent.tools?.[tool] ?? (BROWSER_TOOL_TITLES[tool] ? { title: BROWSER_TOOL_TITLES[tool] } : undefined),
    [agent.tools],
  );

  // The history lists (components/hooks/lists.ts) re-read when this thread starts or a turn on it
  // ends: its title, status and place in the list change then.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (chat.threadExists && chat.status !== 'running') void queryClient.invalidateQueries({ queryKey: ['sessions'] });
  }, [chat.threadExists, chat.status, queryClient]);

  useEffect(() => {
    if (chat.threadExists && !announcedRef.current) {
      announcedRef.current = true;
      onThreadStarted?.();
    }
  }, [chat.threadExists, onThreadStarted]);

  const hasDraft = agent.editableKeys.includes('draft');
  const showPanel = agent.hasTodos || hasDraft;
  const panel = showPanel && (
    <PlannerPanel
      todos={chat.state?.todos}
      draft={hasDraft ? String(chat.state?.draft ?? '') : undefined}
      onDraftChange={hasDraft ? (draft) => chat.setState({ draft }) : undefined}
    />
  );

  return (
    <div className="flex min-h-0 min-w-0 flex-1" data-testid="chat" data-agent={agent.name}>
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <header className="flex h-12 shrink-0 items-center gap-2 border-b px-2 sm:px-4">
          {navigation}
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-sm font-semibold" title={agent.description}>
              {name}
            </h1>
            {parent ? (
              <p className="truncate text-xs text-muted-foreground" data-testid="forked-from">
                <GitBranchIcon className="mr-1 inline size-3" aria-hidden />
                {FORK_LABEL[parent.mode] ?? 'Forked'} from{' '}
                <Link className="underline underline-offset-2" href={`/agents/${encodeURIComponent(agent.name)}/${encodeURIComponent(parent.threadId)}`}>
                  the original thread
                </Link>
              </p>
            ) : (
              agent.description && <p className="hidden truncate text-xs text-muted-foreground sm:block">{agent.description}</p>
            )}
          </div>
          <RunStatus status={chat.status} interrupts={chat.interrupts} />
          {showPanel && <PlannerSheet count={taskCount(chat.state?.todos)}>{panel}</PlannerSheet>}
          {chat.threadExists && (
            <Button asChild variant="ghost" size="icon-sm" title="Audit trail">
              <Link href={`/studio/sessions/${encodeURIComponent(threadId)}`} data-testid="chat-audit-link" aria-label="Audit trail">
                <HistoryIcon aria-hidden />
              </Link>
            </Button>
          )}
        </header>
        <MessageList
          messages={chat.messages}
          running={running}
          streamingMessageId={chat.streamingMessageId}
          streamingReasoningId={chat.streamingReasoningId}
          activeSteps={chat.activeSteps}
          interrupts={chat.interrupts}
          decisions={chat.decisions}
          stoppedToolCallIds={chat.stoppedToolCallIds}
          compactions={chat.compactions}
          inheritedToolCallIds={inherited}
          onEdit={running || fork.busy ? undefined : (messageId, text) => void fork.start({ atMessageId: messageId, message: text })}
          // A version of a reply is asked again from the thread that first had it: every version stays one of its (reply-versions.ts).
          onRegenerate={
            running || fork.busy
              ? undefined
              : (messageId) => {
                  const original = versionsByMessage.get(messageId)?.original;
                  void fork.start({ atMessageId: original?.atMessageId ?? messageId, regenerate: true, ...(original ? { threadId: original.threadId } : {}) });
                }
          }
          onBranch={running || fork.busy ? undefined : (messageId) => void fork.start({ atMessageId: messageId })}
          versions={versionsByMessage}
          threadHref={(id) => `/agents/${encodeURIComponent(agent.name)}/${encodeURIComponent(id)}`}
          forkError={fork.error}
          toolInfo={toolInfo}
          stoppedIds={feedback.stoppedIds}
          failedReplies={feedback.failedReplies}
          pendingSteers={feedback.pendingSteers}
          retrying={feedback.retrying}
          empty={<Suggestions agent={agent} onPick={(text) => void chat.sendMessage(text)} />}
          footer={chat.error && <TurnError error={chat.error} canRetry={chat.canRetry} attempts={feedback.retries} onRetry={feedback.retry} />}
        />
        <div className="shrink-0 space-y-2 border-t bg-background px-2 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:px-4">
          <div className="mx-auto w-full max-w-3xl space-y-2">
            {undoOffers && undoOffers.length > 0 && (
              <UndoOffers agent={agent.name} threadId={threadId} offers={undoOffers} busy={running} toolInfo={toolInfo} />
            )}
            <InterruptPanel
              interrupts={chat.interrupts}
              unplaced={unplaced}
              busy={running}
              canRetry={chat.canRetryInterrupts}
              onRetry={() => void chat.retryInterrupts()}
            />
            <MessageQueue queue={chat.queue} onEdit={chat.editQueued} onMoveUp={chat.moveQueued} onRemove={chat.removeQueued} onSendNow={chat.sendQueuedNow} />
            <Composer
              running={running}
              onSend={chat.sendMessage}
              attachmentsUrl={`/api/agents/${encodeURIComponent(agent.name)}/attachments`}
              onStop={feedback.stop}
              onSteer={feedback.steer}
              placeholder={`Message ${name}…`}
              waitingReason={chat.interrupts.length > 0 ? waitingHint(chat.interrupts, viewer) : undefined}
              modelPicker={agent.models.length > 1 && <ModelPicker models={agent.models} value={chat.model ?? agent.defaultModel} onChange={chat.setModel} />}
            />
          </div>
        </div>
      </div>
      {browser.dialog}
      {showPanel && <aside className="hidden w-80 shrink-0 overflow-y-auto border-l bg-muted/30 lg:block">{panel}</aside>}
      <Announcer
        agentName={name}
        messages={chat.messages}
        streamingMessageId={chat.streamingMessageId}
        interrupts={chat.interrupts}
        error={chat.error?.message ?? null}
        stopped={feedback.stoppedIds.size > 0}
      />
    </div>
  );
}

type ChatView = ReturnType<typeof useAgent>;

/** Each reply's versions by the reply's message here: the first assistant message after the message every version shares. */
function versionsOnReplies(messages: readonly Message[], versions: readonly ReplyVersions[]): Map<string, ReplyVersions> {
  const shown = new Map<string, ReplyVersions>();
  for (const entry of versions) {
    const after = messages.findIndex((message) => message.id === entry.afterMessageId);
    const reply = after < 0 ? undefined : messages.slice(after + 1).find((message) => message.role === 'assistant');
    if (reply) shown.set(reply.id, entry);
  }
  return shown;
}

/**
 * What Stop, Retry and Steer did, for the transcript to show: the message a stop cut short,
 * how many times the turn was retried, and guidance the running turn has not taken in yet.
 */
function useTurnFeedback(chat: ChatView, initialFailedReplies: readonly FailedReply[] = []) {
  const [stopRequested, setStopRequested] = useState(false);
  const [stoppedIds, setStoppedIds] = useState<ReadonlySet<string>>(() => new Set());
  const [failedReplies, setFailedReplies] = useState<ReadonlyMap<string, FailedReply>>(
    () => new Map(initialFailedReplies.map((reply) => [reply.messageId, reply])),
  );
  // Where the running turn's messages start: a failure marks a reply only if this turn wrote it.
  const [turnStart, setTurnStart] = useState<number | null>(null);
  const [retries, setRetries] = useState(0);
  const [steers, setSteers] = useState<{ text: string; after: number }[]>([]);
  const running = chat.status === 'running';

  // Worked out while rendering, not in effects (react.dev, "You might not need an effect"):
  // the stop took effect when the run is over, and the last assistant message is what it cut;
  // a turn that ran to its end clears the retry count; when the run ends, guidance it had not
  // taken leaves the list — a stopped turn drops it, a paused or failed one hands it to its
  // continuation, where it shows as a message (docs/turn-control.md, "Steer").
  if (stopRequested && !running) {
    setStopRequested(false);
    const last = chat.messages.findLast((message) => message.role === 'assistant');
    if (last) setStoppedIds(new Set([...stoppedIds, last.id]));
  }
  if (running && turnStart === null) setTurnStart(chat.messages.length);
  if (!running && turnStart !== null) {
    setTurnStart(null);
    const last = chat.messages.findLastIndex((message) => message.role === 'assistant');
    const error = chat.error;
    if (error && !error.refused && last >= turnStart) {
      const { id } = chat.messages[last]!;
      const reference = error.details?.reference;
      setFailedReplies(
        new Map([...failedReplies, [id, { messageId: id, code: error.code ?? 'error', message: error.message, ...(reference ? { reference } : {}) }]]),
      );
    }
  }
  if (!running && !chat.error && retries !== 0) setRetries(0);
  if (!running && steers.length > 0) setSteers([]);
  // Guidance is taken in as a user message after the one it was sent behind.
  const userCount = chat.messages.filter((message) => message.role === 'user').length;
  const pendingSteers = running ? steers.filter((steer) => userCount <= steer.after).map((steer) => steer.text) : [];

  return {
    stoppedIds,
    failedReplies,
    retries,
    retrying: running && retries > 0,
    pendingSteers,
    stop: () => {
      setStopRequested(true);
      chat.stop();
    },
    retry: () => {
      setRetries((count) => count + 1);
      void chat.retry();
    },
    steer: async (text: string) => {
      const taken = await chat.steer(text);
      if (taken) setSteers((current) => [...current, { text, after: userCount + pendingSteers.length }]);
      return taken;
    },
  };
}

/** The last turn's failure, under the message it cut short, with Retry when the turn can run again. */
function TurnError({ error, canRetry, attempts, onRetry }: { error: AgentError; canRetry: boolean; attempts: number; onRetry: () => void }) {
  return (
    <div
      className="flex flex-wrap items-start gap-2 rounded-lg border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm"
      role="alert"
      data-testid="run-error"
      data-code={error.code}
      data-attempts={attempts}
    >
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-destructive">
          {error.refused
            ? 'Not done'
            : attempts > 0
              ? `Failed again (tried ${attempts + 1} times)`
              : error.details?.retryable
                ? 'The provider is busy — try again'
                : 'This reply failed'}
        </p>
        <p className="break-words">{error.message}</p>
        {error.code && <p className="text-xs text-muted-foreground">Code: {error.code}</p>}
      </div>
      {canRetry && (
        <Button size="sm" data-testid="retry-button" onClick={onRetry}>
          <RotateCcwIcon aria-hidden /> Retry
        </Button>
      )}
    </div>
  );
}

/** The planner on narrow screens: a Tasks button in the header opens it as a sheet. */
function PlannerSheet({ count, children }: { count: string | null; children: ReactNode }) {
  return (
    <Sheet>
      <SheetTrigger asChild>
        <Button variant="secondary" size="sm" className="lg:hidden" data-testid="planner-button">
          <ListChecksIcon aria-hidden /> Tasks{count ? ` ${count}` : ''}
        </Button>
      </SheetTrigger>
      <SheetContent title="Tasks" side="right">
        {children}
      </SheetContent>
    </Sheet>
  );
}

function waitingHint(interrupts: readonly PendingInterrupt[], viewer: { keyHolder: boolean }): string {
  // All decided (the banner says so too): what is left is the agent's turn, not a person's.
  if (interrupts.every((interrupt) => isDecided(interrupt.resolution))) return 'Decided: the agent is carrying on; a message sent now waits until it is done.';
  if (interrupts.every((interrupt) => waitsOnOthers(interrupt, viewer))) return 'Someone else decides above; a message sent now waits until then.';
  const questions = interrupts.every((interrupt) => interrupt.reason === 'input_required');
  return questions ? 'Answer the question above first; a message sent now waits until then.' : 'Decide above first; a message sent now waits until then.';
}

/** An empty chat: the agent's suggested prompts as chips that send themselves, or a line saying what to do. */
function Suggestions({ agent, onPick }: { agent: ChatAgent; onPick: (text: string) => void }) {
  const name = displayNameOf(agent);
  return (
    <div className="mx-auto mt-[10vh] max-w-lg space-y-4 text-center" data-testid={agent.suggestions.length > 0 ? 'suggestions' : undefined}>
      <h2 className="text-xl font-semibold">{name}</h2>
      {agent.description && <p className="text-sm text-muted-foreground">{agent.description}</p>}
      {agent.suggestions.length === 0 ? (
        <p className="text-sm text-muted-foreground">Send {name} a message to start.</p>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">Try one of these, or write your own:</p>
          <ul className="flex flex-wrap justify-center gap-2">
            {agent.suggestions.map((text) => (
              <li key={text}>
                <Button className="h-auto rounded-full px-3 py-1.5 whitespace-normal" onClick={() => onPick(text)} data-testid="suggestion-chip">
                  {text}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

const FORK_LABEL: Record<string, string> = { fork: 'Forked', edit: 'Edited and resent', regenerate: 'Regenerated' };
