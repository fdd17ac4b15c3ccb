'use client';
// A conversation with one agent on one thread: messages (with approval cards next to the
// tool calls waiting on a person), composer, and (for agents with a task list or draft) the
// planner panel, all rendered live from useAgent.
import type { Interrupt, Message } from '@ag-ui/client';
import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useMemo, useRef } from 'react';
import { useBrowserTools } from './browser-tools';
import { Composer } from './composer';
import type { DecisionRecord, QueueItem } from '@/server/contract';
import { findToolCall } from './hooks/agent-store';
import { useAgent, type AgentError, type FrontendTool } from './hooks/useAgent';
import { MessageQueue } from './message-queue';
import { InterruptPanel } from './interrupt-panel';
import { MessageList } from './message-list';
import { PlannerPanel } from './planner-panel';
import type { AgentCard } from '@/server/web/agents';
import { ScriptedModelBadge } from './status-badges';

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
  /** Where the page's thread stands in the session stream: the chat is live from there on. */
  cursor?: string;
  tools?: FrontendTool[];
  /** Called once the server has the thread (its first run started). */
  onThreadStarted?: () => void;
}

export function Chat({ agent, tools, onThreadStarted, ...thread }: ChatProps) {
  const { threadId } = thread;
  // The page's own tools (a confirm dialog, the browser's clock) go with every run, beside the caller's.
  const browser = useBrowserTools();
  const allTools = useMemo(() => [...(tools ?? []), ...browser.tools], [tools, browser.tools]);
  // The thread as the server rendered it (first paint): the hook continues from there.
  const chat = useAgent({ agent: agent.name, ...thread, tools: allTools });
  const running = chat.status === 'running';
  // A card sits under its tool call; one whose call is not in this conversation (raised in a
  // subagent's) goes in the panel above the composer.
  const unplaced = chat.interrupts.filter((interrupt) => !interrupt.toolCallId || !findToolCall(chat.messages, interrupt.toolCallId));
  const announcedRef = useRef(chat.threadExists);

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

  return (
    <div className={showPanel ? 'chat chat-with-panel' : 'chat'} data-testid="chat" data-agent={agent.name}>
      <div className="chat-main">
        <header className="chat-header">
          <div className="chat-heading">
            <h1 className="chat-title">{agent.name}</h1>
            {agent.description && <p className="chat-description">{agent.description}</p>}
          </div>
          <div className="chat-header-badges">
            {chat.threadExists && (
              <Link href={`/studio/sessions/${encodeURIComponent(threadId)}`} className="chat-studio-link" data-testid="chat-audit-link">
                Audit trail
              </Link>
            )}
            {agent.scripted && <ScriptedModelBadge />}
            <span className={`run-status run-status-${chat.status}`} data-testid="run-status" data-status={chat.status}>
              {STATUS_LABEL[chat.status]}
            </span>
          </div>
        </header>
        <MessageList
          messages={chat.messages}
          running={running}
          streamingMessageId={chat.streamingMessageId}
          activeSteps={chat.activeSteps}
          interrupts={chat.interrupts}
          empty={<Suggestions agent={agent} onPick={(text) => void chat.sendMessage(text)} />}
        />
        {chat.error && (
          <div className="chat-error" role="alert" data-testid="run-error" data-code={chat.error.code}>
            <strong>
              {chat.error.refused ? 'Not done' : 'Run failed'}
              {chat.error.code ? ` (${chat.error.code})` : ''}:
            </strong>{' '}
            {chat.error.message}
            {chat.canRetry && (
              <button type="button" className="button chat-error-retry" data-testid="retry-button" onClick={() => void chat.retry()}>
                Retry
              </button>
            )}
          </div>
        )}
        <InterruptPanel
          interrupts={chat.interrupts}
          unplaced={unplaced}
          busy={running}
          canRetry={chat.canRetryInterrupts}
          onRetry={() => void chat.retryInterrupts()}
        />
        <Composer
          running={running}
          onSend={chat.sendMessage}
          onStop={chat.stop}
          onSteer={chat.steer}
          waitingReason={chat.interrupts.length > 0 ? waitingHint(chat.interrupts) : undefined}
        />
        <MessageQueue queue={chat.queue} onEdit={chat.editQueued} onMoveUp={chat.moveQueued} onRemove={chat.removeQueued} onSendNow={chat.sendQueuedNow} />
      </div>
      {browser.dialog}
      {showPanel && (
        <PlannerPanel
          todos={chat.state?.todos}
          draft={hasDraft ? String(chat.state?.draft ?? '') : undefined}
          onDraftChange={hasDraft ? (draft) => chat.setState({ draft }) : undefined}
        />
      )}
    </div>
  );
}

const STATUS_LABEL = { idle: 'Ready', running: 'Running', error: 'Error', failed: 'Failed' } as const;

function waitingHint(interrupts: readonly { reason: string }[]): string {
  const questions = interrupts.every((interrupt) => interrupt.reason === 'input_required');
  return questions
    ? 'Answer the agent’s question above to continue; a message sent now waits until then.'
    : 'Decide the pending approval above to continue; a message sent now waits until then.';
}

/** An empty chat: the agent's suggested prompts as chips that send themselves, or a line saying what to do. */
function Suggestions({ agent, onPick }: { agent: ChatAgent; onPick: (text: string) => void }) {
  if (agent.suggestions.length === 0) return <p className="message-list-empty">Send {agent.name} a message to start.</p>;
  return (
    <div className="message-list-empty suggestions" data-testid="suggestions">
      <p>Try one of these, or write your own:</p>
      <ul className="suggestion-chips">
        {agent.suggestions.map((text) => (
          <li key={text}>
            <button type="button" className="suggestion-chip" onClick={() => onPick(text)}>
              {text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
