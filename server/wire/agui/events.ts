// Runtime parts → AG-UI events. A translation only: ids are the log's ids.
import { EventType, type BaseEvent, type Message as AgUiMessage } from '@ag-ui/core';
import {
  INTERRUPT_BINDING_VERSION,
  canonicalInterruptJson,
  digestInterruptJson,
  hashSchemaInput,
  normalizeApprovalSchema,
  withInterruptBinding,
  type InterruptBinding,
} from '@tanstack/ai';
import { ANY_READER, isYesOrNoApproval, shownVote, type RunPart, type UsageEntry, type VoteReader } from '../../runtime';
import type { InterruptRecord } from '../../store/pauses';
import type { ChatMessage, JsonObject, ProviderMetadata } from '../../store/messages';
import {
  CONTEXT_COMPACTED,
  INTERRUPT_DECIDED,
  INTERRUPT_VOTES,
  QUEUE_CHANGED,
  SOURCES,
  TOOLS_STOPPED,
  TOOL_PROGRESS,
  userMessageContent,
  type ContextCompactedValue,
  type DecisionRecord,
  type InterruptDecidedValue,
  type InterruptVotesValue,
  type QueueChangedValue,
  type ShownVote,
  type SourcesContent,
  type ToolProgressContent,
  type ToolsStoppedValue,
} from '../../contract';
import { functionCall } from '../function-call';

/**
 * The log's messages as AG-UI messages. A step's reasoning parts are `role: 'reasoning'`
 * messages of their own, right before the assistant message they led to, under the ids their
 * REASONING_MESSAGE_* events named: a snapshot keeps what a client streamed.
 */
export function toAgUiMessages(messages: ChatMessage[]): AgUiMessage[] {
  return messages.flatMap((message): AgUiMessage[] => {
    switch (message.role) {
      case 'user':
        return [{ id: message.id, role: 'user', content: userMessageContent(message.content, message.attachments) }];
      case 'system':
      case 'developer':
        return [{ id: message.id, role: message.role, content: message.content }];
      case 'assistant':
        return [
          ...(message.reasoning ?? []).map((part): AgUiMessage => ({
            id: part.id,
            role: 'reasoning',
            content: part.text,
            ...(part.providerMetadata ? { encryptedValue: encryptedValue(part.providerMetadata) } : {}),
          })),
          {
            id: message.id,
            role: 'assistant',
            ...(message.content ? { content: message.content } : {}),
            ...(message.toolCalls?.length ? { toolCalls: message.toolCalls.map(functionCall) } : {}),
          },
          // What the step cited, right after it, as the live ACTIVITY_SNAPSHOT left it.
          ...(message.sources?.length
            ? [
                {
                  id: sourcesMessageId(message.id),
                  role: 'activity',
                  activityType: SOURCES,
                  content: { messageId: message.id, sources: message.sources.map(({ url, title }) => ({ url, ...(title ? { title } : {}) })) },
                } as AgUiMessage,
              ]
            : []),
        ];
      case 'tool':
        return [
          {
            id: message.id,
            role: 'tool',
            toolCallId: message.toolCallId,
            content: message.content,
            ...(message.isError ? { error: message.content } : {}),
          },
        ];
    }
  });
}

/**
 * The log's messages as TanStack AI's model messages, the shape its `hydrate` reads: the
 * conversation's user, assistant and tool messages, each step's reasoning as the `thinking` of
 * its assistant message (TanStack shows it as a thinking part).
 */
export function toTanStackMessages(messages: ChatMessage[]) {
  const reasoningOf = new Map(
    messages.flatMap((message) => (message.role === 'assistant' && message.reasoning?.length ? [[message.id, message.reasoning]] : [])),
  );
  return toAgUiMessages(messages).flatMap((message): (AgUiMessage & { thinking?: { content: string }[] })[] => {
    if (message.role === 'user' || message.role === 'tool') return [message];
    if (message.role !== 'assistant') return [];
    const reasoning = reasoningOf.get(message.id);
    return [reasoning ? { ...message, thinking: reasoning.map((part) => ({ content: part.text })) } : message];
  });
}

/**
 * What AG-UI calls a reasoning message's encrypted value: the provider's metadata of the part
 * (an Anthropic signature, an OpenAI item's encrypted content), whole, as JSON. Opaque to the
 * client, which has no use for it: the server keeps the history and sends it back itself.
 */
function encryptedValue(metadata: ProviderMetadata): string {
  return JSON.stringify(metadata);
}

/** A run's usage as AG-UI's TokenUsage entries: one per provider and model, with their total. */
export function toAgUiUsage(usage: readonly UsageEntry[]) {
  return usage.map((entry) => ({ ...entry, totalTokens: (entry.inputTokens ?? 0) + (entry.outputTokens ?? 0) }));
}

/** The run an event belongs to: RUN_FINISHED names it. */
export interface AgUiRunContext {
  threadId: string;
  runId: string;
  /** The client declared protocolVersion '1.0': no keys beyond the 1.0 Interrupt shape at the top level. */
  strict: boolean;
  /** Who reads the stream's votes (docs/approvals.md, "Votes"): nobody in particular unless said. */
  voteReader?: VoteReader;
}

/**
 * TanStack AI's approval schema for a call answered by a yes or a no alone. Its client builds
 * the same from a tool declared with `needsApproval: true` and neither `inputSchema` nor
 * `approvalSchema` (to TanStack an input schema on an approval means the arguments may be
 * edited), and compares the hashes; see docs/internals/wires.md, "TanStack AI's client".
 */
const YES_OR_NO = normalizeApprovalSchema(undefined, undefined);

/**
 * An interrupt in AG-UI shape. The seed shape's description and allowedDecisions always
 * ride in metadata, and at the top level too unless the client speaks strict 1.0.
 *
 * It also carries TanStack AI's resume binding in `metadata['tanstack:interruptBinding']`:
 * without one its ChatClient holds the interrupt as "unbound" and cannot answer it
 * (docs/internals/wires.md, "TanStack AI's client"). `generation` is 0: an interrupted run pauses
 * once, so its id alone names the batch. Bindings are built with @tanstack/ai's helpers, so
 * every hash is the one its client computes.
 */
export function toAgUiInterrupt(record: InterruptRecord, strict: boolean, votes?: ShownVote[]) {
  // A pause with no description omits the field (docs/hitl.md); `message` always reads.
  const seed = { ...(record.description !== undefined ? { description: record.description } : {}), allowedDecisions: record.allowedDecisions };
  const yesOrNo = isYesOrNoApproval(record);
  const descriptor = {
    id: record.id,
    reason: record.reason,
    message: record.message,
    toolCallId: record.toolCallId,
    // A yes-or-no approval is described by TanStack's schema, so its client answers it natively.
    // The server reads the payload, not the schema (runtime/decisions/read-decision.ts): every answer our own schema
    // allowed, a rejection's `reason` included, still goes through.
    responseSchema: yesOrNo ? (YES_OR_NO.responseSchema as JsonObject) : record.responseSchema,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    metadata: {
      ...seed,
      toolName: record.toolName,
      args: record.input,
      agent: record.agent,
      onExpire: record.onExpire,
      ...(record.approvers ? { approvers: record.approvers } : {}),
      // A call that needs a quorum: how many, and the votes so far as the reader may see them (docs/approvals.md, "Votes").
      ...(record.quorum ? { quorum: record.quorum, votes: votes ?? [] } : {}),
      ...(record.requesterMayApprove === false ? { requesterMayApprove: false } : {}),
      ...(record.url ? { url: record.url } : {}),
      // What the tool looked up for the approver (docs/hitl.md, "Approval context").
      ...(record.context ? { context: record.context } : {}),
    },
    ...(strict ? {} : seed),
  };
  const binding = yesOrNo ? toolApprovalBinding(record) : genericBinding(record);
  // withInterruptBinding adds metadata['tanstack:interruptBinding'] and nothing else.
  return binding ? (withInterruptBinding(descriptor, binding) as typeof descriptor) : descriptor;
}

/**
 * The tool-approval kind, for a yes-or-no approval: the client answers it with
 * `resolveInterrupt(true | false)`, sending `{approved}`, once it has the tool declared
 * with `needsApproval: true` (it checks the tool name, the call id and the schema hashes).
 */
function toolApprovalBinding(record: InterruptRecord): InterruptBinding {
  return {
    v: INTERRUPT_BINDING_VERSION,
    kind: 'tool-approval',
    interruptId: record.id,
    interruptedRunId: record.runId,
    generation: 0,
    toolName: record.toolName,
    toolCallId: record.toolCallId,
    originalArgs: record.input,
    inputSchemaHash: hashSchemaInput(undefined),
    approvalSchemaHash: YES_OR_NO.approvalSchemaHash,
    responseSchemaHash: YES_OR_NO.responseSchemaHash,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
  };
}

/**
 * The generic kind, for every other interrupt: it says only which run paused and that the
 * answer must fit `responseSchema` (by its hash), so a resolution is the payload our schema
 * describes (`{approved, reason?, editedArgs?, payload?}`, or the requested input). Tools
 * with edits or approval data keep our schema: other clients build their edit and details
 * forms from its `editedArgs` and `payload` properties (docs/hitl.md, "In the web app"),
 * which TanStack's schema moves under `oneOf`.
 */
function genericBinding(record: InterruptRecord): InterruptBinding | undefined {
  let responseSchemaHash: string;
  try {
    // Hash what the client receives: the schema after JSON encoding.
    responseSchemaHash = digestInterruptJson(canonicalInterruptJson(JSON.parse(JSON.stringify(record.responseSchema))));
  } catch {
    return undefined; // not JSON-hashable: the interrupt stays unbound rather than failing the stream
  }
  return {
    v: INTERRUPT_BINDING_VERSION,
    kind: 'generic',
    interruptId: record.id,
    interruptedRunId: record.runId,
    generation: 0,
    responseSchemaHash,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
  };
}

type ReasoningPart = Extract<RunPart, { type: 'reasoning-start' | 'reasoning-delta' | 'reasoning-end' }>;

/**
 * The AG-UI events of one part. A reasoning part opens a span and its one message together, and
 * closes them together, with the encrypted value between when the provider gave one: one part,
 * several events, under one cursor (stream.ts).
 */
export function toAgUiEvents(part: RunPart, run: AgUiRunContext): BaseEvent[] {
  switch (part.type) {
    case 'reasoning-start':
    case 'reasoning-delta':
    case 'reasoning-end':
      return reasoningEvents(part);
    default:
      return [toAgUiEvent(part, run)];
  }
}

function reasoningEvents(part: ReasoningPart): BaseEvent[] {
  const { messageId } = part;
  switch (part.type) {
    case 'reasoning-start':
      return [
        { type: EventType.REASONING_START, messageId } as BaseEvent,
        { type: EventType.REASONING_MESSAGE_START, messageId, role: 'reasoning' } as BaseEvent,
      ];
    case 'reasoning-delta':
      return [{ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta: part.delta } as BaseEvent];
    case 'reasoning-end':
      return [
        { type: EventType.REASONING_MESSAGE_END, messageId } as BaseEvent,
        ...(part.providerMetadata
          ? [
              {
                type: EventType.REASONING_ENCRYPTED_VALUE,
                subtype: 'message',
                entityId: messageId,
                encryptedValue: encryptedValue(part.providerMetadata),
              } as BaseEvent,
            ]
          : []),
        { type: EventType.REASONING_END, messageId } as BaseEvent,
      ];
  }
}

function toAgUiEvent(part: Exclude<RunPart, ReasoningPart>, run: AgUiRunContext): BaseEvent {
  switch (part.type) {
    case 'run-started':
      return {
        type: EventType.RUN_STARTED,
        threadId: part.threadId,
        runId: part.runId,
        ...(part.parentRunId ? { parentRunId: part.parentRunId } : {}),
      } as BaseEvent;
    case 'messages-snapshot':
      return { type: EventType.MESSAGES_SNAPSHOT, messages: toAgUiMessages(part.messages) } as BaseEvent;
    case 'state-snapshot':
      return { type: EventType.STATE_SNAPSHOT, snapshot: part.state } as BaseEvent;
    case 'text-start':
      return { type: EventType.TEXT_MESSAGE_START, messageId: part.messageId, role: 'assistant' } as BaseEvent;
    case 'text-delta':
      return { type: EventType.TEXT_MESSAGE_CONTENT, messageId: part.messageId, delta: part.delta } as BaseEvent;
    case 'text-end':
      return { type: EventType.TEXT_MESSAGE_END, messageId: part.messageId } as BaseEvent;
    case 'tool-call-start':
      return { type: EventType.TOOL_CALL_START, toolCallId: part.toolCallId, toolCallName: part.toolName, parentMessageId: part.parentMessageId } as BaseEvent;
    case 'tool-call-delta':
      return { type: EventType.TOOL_CALL_ARGS, toolCallId: part.toolCallId, delta: part.delta } as BaseEvent;
    case 'tool-call-end':
      return { type: EventType.TOOL_CALL_END, toolCallId: part.toolCallId } as BaseEvent;
    case 'tool-result':
      return { type: EventType.TOOL_CALL_RESULT, messageId: part.messageId, toolCallId: part.toolCallId, content: part.content, role: 'tool' } as BaseEvent;
    case 'state-delta':
      return { type: EventType.STATE_DELTA, delta: part.patch } as BaseEvent;
    case 'step-started':
      return { type: EventType.STEP_STARTED, stepName: part.stepName } as BaseEvent;
    case 'step-finished':
      return { type: EventType.STEP_FINISHED, stepName: part.stepName } as BaseEvent;
    case 'run-finished':
      return {
        type: EventType.RUN_FINISHED,
        threadId: run.threadId,
        runId: run.runId,
        outcome:
          part.outcome.type === 'interrupt'
            ? { type: 'interrupt', interrupts: (part.interrupts ?? []).map((record) => toAgUiInterrupt(record, run.strict)) }
            : part.outcome,
        // AG-UI 1.0's own field: what the run's model calls cost, per provider and model.
        ...(part.usage?.length ? { usage: toAgUiUsage(part.usage) } : {}),
      } as BaseEvent;
    case 'run-error':
      return {
        type: EventType.RUN_ERROR,
        message: part.message,
        code: part.code,
        ...(part.details ? { metadata: part.details } : {}),
        ...(part.usage?.length ? { usage: toAgUiUsage(part.usage) } : {}),
      } as BaseEvent;
    case 'interrupt-decided':
      // Not an AG-UI lifecycle event: a decision, for clients that show it under its call.
      return { type: EventType.CUSTOM, name: INTERRUPT_DECIDED, value: interruptDecidedValue(part.decision) } as BaseEvent;
    case 'interrupt-voted':
      return {
        type: EventType.CUSTOM,
        name: INTERRUPT_VOTES,
        value: {
          interruptId: part.interruptId,
          quorum: part.quorum,
          votes: part.votes.map((vote) => shownVote(vote, run.voteReader ?? ANY_READER)),
        } satisfies InterruptVotesValue,
      } as BaseEvent;
    case 'context-compacted':
      return { type: EventType.CUSTOM, name: CONTEXT_COMPACTED, value: part.compaction satisfies ContextCompactedValue } as BaseEvent;
    case 'tools-stopped':
      return { type: EventType.CUSTOM, name: TOOLS_STOPPED, value: { toolCallIds: part.toolCallIds } satisfies ToolsStoppedValue } as BaseEvent;
    case 'tool-progress':
      // AG-UI's event for a live, replaceable update: one activity message per call, replaced
      // by each new output. (A TOOL_CALL_RESULT per output would add a tool message each time
      // in AG-UI clients; the call's one TOOL_CALL_RESULT follows when it ends.)
      return {
        type: EventType.ACTIVITY_SNAPSHOT,
        messageId: `progress:${part.toolCallId}`,
        activityType: TOOL_PROGRESS,
        content: { toolCallId: part.toolCallId, toolName: part.toolName, output: part.output } satisfies ToolProgressContent,
        replace: true,
      } as BaseEvent;
    case 'sources':
      // An activity message of the step's own, as a snapshot holds it (toAgUiMessages).
      return {
        type: EventType.ACTIVITY_SNAPSHOT,
        messageId: sourcesMessageId(part.messageId),
        activityType: SOURCES,
        content: { messageId: part.messageId, sources: part.sources } satisfies SourcesContent,
        replace: true,
      } as BaseEvent;
    case 'queue-changed':
      return { type: EventType.CUSTOM, name: QUEUE_CHANGED, value: { queue: part.queue } satisfies QueueChangedValue } as BaseEvent;
  }
}

/** A decision as the `stackbone.interrupt_decided` event carries it: its `by` is the source alone, as it always was. */
function interruptDecidedValue({ by, ...decision }: DecisionRecord): InterruptDecidedValue {
  return { ...decision, by: by.source, ...(by.credential ? { credential: by.credential } : {}) };
}

/** The activity message holding an assistant message's sources. */
function sourcesMessageId(messageId: string): string {
  return `sources:${messageId}`;
}
