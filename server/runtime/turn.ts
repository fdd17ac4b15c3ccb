// The step loop. A run takes the session (compare-and-set on the log head), records the
// client's input, then alternates model steps and tool calls until the model answers in
// text, a frontend tool is called, or the run is stopped. Each step is one coalesced
// event: writes grow with steps, never with tokens.
import { randomUUID } from 'node:crypto';
import { generateText, streamText } from 'ai';
import type { DeepAgent } from '../define';
import { resolveModel } from '../models/resolve';
import { ConcurrentAppendError, type EventStore } from '../store/types';
import { DELEGATION_TOOL } from './builtins';
import { createChannel, type Channel } from './channel';
import { buildInterrupt, expiryDecision, isExpired, planResume, policyFor, type DecisionRequest } from './decide';
import type { AssistantMessage, ChatMessage, DecisionActor, InterruptRecord, JsonObject, RunOutcome, RunSource, SessionEvent, ToolCall, ToolMessage } from './events';
import { errorMessage, RunRejectedError } from './errors';
import { acceptInput } from './input';
import { toModelMessages } from './model-messages';
import type { RunPart } from './parts';
import { interruptForCall, pendingInterrupts, reduce, reduceAll, type SessionView } from './reduce';
import { statePatch } from './state';
import { agentTools, executeTool, modelTools, toolKind, type ClientTool } from './tools';

export interface RunRequest {
  agent: DeepAgent;
  store: EventStore;
  sessionId: string;
  ownerId: string;
  /** false for a stateless turn: the store is a throwaway one. */
  durable?: boolean;
  runId?: string;
  parentRunId?: string;
  source: RunSource;
  /** The client's messages; merged by id. */
  messages: ChatMessage[];
  clientTools?: ClientTool[];
  state?: unknown;
  /** Decisions on the open interrupts (AG-UI resume): all or nothing. */
  resume?: DecisionRequest[];
  /** Who makes the resume's decisions, for the audit trail (default: the run's source and owner). */
  decidedBy?: DecisionActor;
  /** Aborts the run (client went away, or a stop). */
  signal?: AbortSignal;
}

const ACTOR_OF_SOURCE: Record<RunSource, DecisionActor['source']> = { agui: 'agui', openai: 'server', anthropic: 'server', hitl: 'hitl', server: 'server' };

export interface StartedRun {
  sessionId: string;
  runId: string;
  parts: AsyncIterable<RunPart>;
  /** Settles when the run has written its last event. */
  done: Promise<void>;
  /** Tokens this run's model steps used so far (final once the run finished). */
  usage?: () => RunUsage;
}

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
}

/** How long a run holds its session without renewing; a crashed server's run expires after it. */
export function leaseMs(): number {
  return Number(process.env.STACKBONE_LEASE_MS) || 30_000;
}

/**
 * Starts a run: checks the request against the session and takes the session. Throws
 * RunRejectedError — having written nothing — when the run may not start.
 */
export async function startRun(request: RunRequest): Promise<StartedRun> {
  const { agent, store, sessionId, ownerId } = request;
  const session = await store.getSession(sessionId);
  if (session && session.ownerId !== ownerId) throw new RunRejectedError('not_found', `No session "${sessionId}".`, 404);
  if (session && session.agent !== agent.name) {
    throw new RunRejectedError('agent_mismatch', `Session "${sessionId}" belongs to agent "${session.agent}", not "${agent.name}".`, 409);
  }
  const view = reduceAll(session ? await store.readEvents(sessionId) : [], agent.initialState);
  if (view.status === 'running' && session?.leaseUntil && session.leaseUntil.getTime() > Date.now()) {
    throw new RunRejectedError('session_busy', `Session "${sessionId}" is running another turn; try again when it finishes.`, 409);
  }
  // Interrupts past their expiry take their default action before anything else.
  const expired: SessionEvent[] = pendingInterrupts(view)
    .filter((record) => isExpired(record))
    .map((record) => ({ type: 'interrupt_decided', interruptId: record.id, decision: expiryDecision(record) }));
  const current = foldEvents(view, expired);

  const runId = request.runId ?? randomUUID();
  let decisions: SessionEvent[] = [];
  if (request.resume?.length) {
    const by: DecisionActor = request.decidedBy ?? { source: ACTOR_OF_SOURCE[request.source], ownerId };
    const plan = await planResume(agent, current, request.resume, by, async (id) => {
      const row = await store.findInterrupt(id);
      return row !== null && row.sessionId !== sessionId && row.ownerId === ownerId;
    });
    if (plan.kind === 'replay') return replayRun(request, runId, current);
    decisions = plan.decisions.map(({ interruptId, decision }) => ({ type: 'interrupt_decided', interruptId, decision }));
  } else {
    const pending = pendingInterrupts(current);
    if (pending.length > 0) {
      throw new RunRejectedError('interrupts_pending', `This thread is waiting on a human decision (${pending.map((record) => record.id).join(', ')}); resume it with a decision for each.`, 409, { interruptIds: pending.map((record) => record.id) });
    }
  }
  const inputEvents = acceptInput(agent, current, { messages: request.messages, state: request.state });

  const record = session ?? (await store.ensureSession({ id: sessionId, ownerId, agent: agent.name }));
  if (record.ownerId !== ownerId) throw new RunRejectedError('not_found', `No session "${sessionId}".`, 404);

  const runner = new TurnRunner(request, runId, view);
  const firstUserText = record.title ? undefined : inputEvents.find((event) => event.type === 'message_added' && event.message.role === 'user');
  try {
    await runner.append([{ type: 'run_started', runId, parentRunId: request.parentRunId, source: request.source }, ...expired, ...decisions, ...inputEvents], {
      title: firstUserText?.type === 'message_added' ? sessionTitle(firstUserText.message.content) : undefined,
    });
  } catch (error) {
    if (ConcurrentAppendError.is(error)) {
      throw new RunRejectedError('session_busy', `Session "${sessionId}" changed while this run started (another run or decision won); try again.`, 409);
    }
    throw error;
  }
  const done = runner.execute(view.messages.length > 0);
  return { sessionId, runId, parts: runner.channel, done, usage: () => ({ ...runner.usage }) };
}

type StepEnd = 'continue' | 'finished';

/** A session's title: its first user message, on one line, cut at a word. */
export function sessionTitle(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
}

function foldEvents(view: SessionView, events: SessionEvent[], at = new Date().toISOString()): SessionView {
  return events.reduce((next, event, index) => reduce(next, { seq: view.seq + index + 1, at, event }), view);
}

/**
 * An identical resume that already applied: nothing runs again. The client gets the
 * thread as it stands and the outcome of the run that followed the decision.
 */
function replayRun(request: RunRequest, runId: string, view: SessionView): StartedRun {
  const channel = createChannel<RunPart>();
  channel.push({ type: 'run-started', threadId: request.sessionId, runId, parentRunId: request.parentRunId });
  channel.push({ type: 'messages-snapshot', messages: view.messages });
  channel.push({ type: 'state-snapshot', state: view.state });
  const pending = view.openToolCalls.map((call) => call.id);
  channel.push({ type: 'run-finished', outcome: view.lastRun?.outcome?.type === 'cancelled' ? { type: 'cancelled' } : { type: 'success', ...(pending.length ? { pendingToolCallIds: pending } : {}) } });
  channel.close();
  return { sessionId: request.sessionId, runId, parts: channel, done: Promise.resolve() };
}

class TurnRunner {
  readonly channel: Channel<RunPart> = createChannel();
  private readonly controller = new AbortController();
  private readonly clientTools: ClientTool[];
  /** Summed over this run's model steps; the chat wires report it. */
  readonly usage: RunUsage = { inputTokens: 0, outputTokens: 0 };

  constructor(
    private readonly request: RunRequest,
    private readonly runId: string,
    private view: SessionView,
  ) {
    this.clientTools = request.clientTools ?? [];
    request.signal?.addEventListener('abort', () => this.controller.abort(request.signal?.reason), { once: true });
    if (request.signal?.aborted) this.controller.abort(request.signal.reason);
  }

  private get signal() {
    return this.controller.signal;
  }

  private emit(part: RunPart) {
    this.channel.push(part);
  }

  /** Appends events at the head this run last saw, and folds them into its view. */
  async append(events: SessionEvent[], options: { title?: string } = {}): Promise<void> {
    const next = foldEvents(this.view, events);
    const running = next.status === 'running';
    await this.request.store.append(this.request.sessionId, this.view.seq, events, {
      status: next.status,
      leaseUntil: running ? new Date(Date.now() + leaseMs()) : null,
      ...(options.title ? { title: options.title } : {}),
    });
    this.view = next;
  }

  async execute(hadMessages: boolean): Promise<void> {
    const heartbeat = setInterval(() => {
      void this.request.store
        .renewLease(this.request.sessionId, this.view.seq, new Date(Date.now() + leaseMs()))
        .catch(() => undefined);
    }, Math.max(1000, leaseMs() / 3));
    heartbeat.unref?.();
    try {
      this.emit({ type: 'run-started', threadId: this.request.sessionId, runId: this.runId, parentRunId: this.request.parentRunId });
      if (hadMessages) this.emit({ type: 'messages-snapshot', messages: this.view.messages });
      this.emit({ type: 'state-snapshot', state: this.view.state });
      await this.loop();
    } catch (error) {
      if (ConcurrentAppendError.is(error)) {
        // Our lease ran out and another run took the session: it owns the log now.
        this.emit({ type: 'run-error', code: 'session_busy', message: 'Another run took over this session.' });
      } else {
        await this.fail('internal_error', errorMessage(error)).catch(() => undefined);
      }
    } finally {
      clearInterval(heartbeat);
      this.channel.close();
    }
  }

  private async loop(): Promise<void> {
    const { agent } = this.request;
    for (let steps = 0; ; ) {
      const needApproval: ToolCall[] = [];
      let cancelled = false;
      for (const call of this.view.openToolCalls) {
        if (this.signal.aborted) return this.finish({ type: 'cancelled' });
        const kind = toolKind(agent, this.clientTools, call.name);
        if (kind === 'client') continue;
        const gate = this.gate(call, kind);
        if (gate === 'interrupt') needApproval.push(call);
        else if (gate === 'pending') continue;
        else if (gate === 'cancelled') {
          cancelled = true;
          await this.recordResult(call, { ok: false, content: 'Cancelled by the user: the tool did not run.', state: this.view.state, cancelled: true });
        } else if (gate.status === 'denied') {
          const why = gate.reason ? ` Reason: ${gate.reason}` : '';
          await this.recordResult(call, { ok: true, content: `The user denied this call; it did not run.${why}`, output: { denied: true, reason: gate.reason ?? null }, state: this.view.state, denied: true });
        } else {
          await this.runToolCall(call, kind, gate);
        }
      }
      if (this.signal.aborted) return this.finish({ type: 'cancelled' });
      if (cancelled) return this.finish({ type: 'cancelled' });
      const opened = needApproval.map((call) => buildInterrupt(agent, call, this.runId));
      const waiting = [...pendingInterrupts(this.view), ...opened];
      if (waiting.length > 0) return this.pause(opened, waiting);
      const pendingClient = this.view.openToolCalls.map((call) => call.id);
      if (pendingClient.length > 0) return this.finish({ type: 'success', pendingToolCallIds: pendingClient });
      if (steps >= agent.maxSteps) {
        return this.fail('max_steps_exceeded', `Agent "${agent.name}" took ${steps} model steps without finishing.`);
      }
      steps++;
      if ((await this.modelStep()) === 'finished') return;
    }
  }

  /**
   * What may happen to a server-side tool call now: run it (with a decision's edits), record
   * a denial or cancellation, wait for a pending decision, or ask for one.
   */
  private gate(call: ToolCall, kind: ReturnType<typeof toolKind>): 'interrupt' | 'pending' | 'cancelled' | { status: 'approved' | 'denied'; editedArgs?: unknown; payload?: unknown; reason?: string } {
    const interrupt = interruptForCall(this.view, call.id);
    if (interrupt) {
      const decision = interrupt.decision;
      if (!decision) return 'pending';
      if (decision.status === 'cancelled') return 'cancelled';
      return { status: decision.status, editedArgs: decision.editedArgs, payload: decision.payload, reason: decision.reason };
    }
    if (kind !== 'backend') return { status: 'approved' };
    if (policyFor(this.request.agent, call, this.request.sessionId) === 'approved') return { status: 'approved' };
    // A stateless turn cannot pause (SPEC §3): it runs the tool, or refuses it if the agent says so.
    if (this.request.durable === false) {
      return this.request.agent.statelessApproval === 'deny'
        ? { status: 'denied', reason: 'This tool needs a human approval, which a stateless request cannot wait for.' }
        : { status: 'approved' };
    }
    return 'interrupt';
  }

  /** Ends the run waiting for decisions: the thread as it stands, then the interrupts. */
  private async pause(opened: InterruptRecord[], waiting: InterruptRecord[]): Promise<void> {
    const outcome: RunOutcome = { type: 'interrupt', interruptIds: waiting.map((record) => record.id) };
    await this.append([...(opened.length ? [{ type: 'interrupts_opened' as const, interrupts: opened }] : []), { type: 'run_finished', runId: this.runId, outcome }]);
    this.emit({ type: 'messages-snapshot', messages: this.view.messages });
    this.emit({ type: 'state-snapshot', state: this.view.state });
    this.emit({ type: 'run-finished', outcome, interrupts: waiting });
  }

  /** One model call, streamed live; recorded as one assistant_step event. */
  private async modelStep(): Promise<StepEnd> {
    const { agent } = this.request;
    const messageId = randomUUID();
    const toolCalls: ToolCall[] = [];
    const openCalls = new Set<string>();
    let text = '';
    let textOpen = false;
    let finishReason = 'stop';
    let usage: { inputTokens?: number; outputTokens?: number } | undefined;
    const closeText = () => {
      if (textOpen) this.emit({ type: 'text-end', messageId });
      textOpen = false;
    };
    const closeCalls = () => {
      for (const id of openCalls) this.emit({ type: 'tool-call-end', toolCallId: id });
      openCalls.clear();
    };

    let failure: unknown;
    try {
      const result = streamText({
        model: resolveModel(agent.model).model,
        instructions: agent.instructions,
        messages: toModelMessages(this.view.messages),
        // A stateless chat request's own system prompt rides in the history (toModelMessages keeps it).
        allowSystemInMessages: true,
        tools: modelTools(agent, this.clientTools),
        abortSignal: this.signal,
        // Errors arrive as stream parts and become run_failed; the SDK need not log them too.
        onError: () => undefined,
      });
      for await (const part of result.stream) {
        switch (part.type) {
          case 'text-delta':
            if (!part.text) break;
            if (!textOpen) this.emit({ type: 'text-start', messageId });
            textOpen = true;
            text += part.text;
            this.emit({ type: 'text-delta', messageId, delta: part.text });
            break;
          case 'tool-input-start':
            closeText();
            openCalls.add(part.id);
            this.emit({ type: 'tool-call-start', toolCallId: part.id, toolName: part.toolName, parentMessageId: messageId });
            break;
          case 'tool-input-delta':
            if (openCalls.has(part.id)) this.emit({ type: 'tool-call-delta', toolCallId: part.id, delta: part.delta });
            break;
          case 'tool-call':
            closeText();
            if (!openCalls.has(part.toolCallId)) {
              this.emit({ type: 'tool-call-start', toolCallId: part.toolCallId, toolName: part.toolName, parentMessageId: messageId });
              this.emit({ type: 'tool-call-delta', toolCallId: part.toolCallId, delta: JSON.stringify(part.input ?? {}) });
            }
            openCalls.delete(part.toolCallId);
            this.emit({ type: 'tool-call-end', toolCallId: part.toolCallId });
            toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input ?? {} });
            break;
          case 'finish-step':
            finishReason = part.finishReason;
            usage = { inputTokens: part.usage.inputTokens, outputTokens: part.usage.outputTokens };
            this.usage.inputTokens += part.usage.inputTokens ?? 0;
            this.usage.outputTokens += part.usage.outputTokens ?? 0;
            break;
          case 'error':
            throw part.error;
          default:
            break;
        }
      }
    } catch (error) {
      failure = error;
    }
    closeText();
    closeCalls();

    if (this.signal.aborted) {
      // Keep what the user saw streaming; calls not yet complete are dropped.
      const partial: SessionEvent[] = text ? [{ type: 'assistant_step', message: { id: messageId, role: 'assistant', content: text }, finishReason: 'abort' }] : [];
      await this.finish({ type: 'cancelled' }, partial);
      return 'finished';
    }
    if (failure !== undefined) {
      await this.fail('model_error', errorMessage(failure));
      return 'finished';
    }
    const message: AssistantMessage = { id: messageId, role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) };
    const step: SessionEvent = { type: 'assistant_step', message, finishReason, usage };
    if (toolCalls.length === 0) {
      await this.finish({ type: 'success' }, [step]);
      return 'finished';
    }
    await this.append([step]);
    return 'continue';
  }

  /** Runs one tool call the server owns, and records its result (and any state it changed). */
  private async runToolCall(original: ToolCall, kind: ReturnType<typeof toolKind>, approval: { editedArgs?: unknown; payload?: unknown } = {}): Promise<void> {
    if (kind === 'delegate') return this.delegate(original);
    // An approved edit replaces the arguments wholesale; the call keeps its id.
    const call = approval.editedArgs !== undefined ? { ...original, input: approval.editedArgs } : original;
    if (kind === 'unknown') return this.recordResult(call, { ok: false, content: `Unknown tool "${call.name}".`, state: this.view.state });
    const definition = agentTools(this.request.agent)[call.name]!;
    const attempt = (this.view.toolAttempts[call.id] ?? 0) + 1;
    await this.append([{ type: 'tool_started', toolCallId: call.id, toolName: call.name, attempt }]);
    const outcome = await executeTool({
      definition,
      call,
      state: this.view.state,
      history: toModelMessages(this.view.messages),
      context: {
        attempt,
        payload: approval.payload,
        signal: this.signal,
        session: { id: this.request.sessionId, agent: this.request.agent.name, ownerId: this.request.ownerId, durable: this.request.durable !== false },
      },
    });
    await this.recordResult(call, outcome.ok ? { ok: true, content: outcome.content, output: outcome.output, state: outcome.state } : outcome);
  }

  private async recordResult(call: ToolCall, outcome: { ok: boolean; content: string; output?: unknown; state: JsonObject; denied?: boolean; cancelled?: boolean }, extra: SessionEvent[] = []) {
    const message: ToolMessage = {
      id: randomUUID(),
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: outcome.content,
      ...(outcome.ok ? {} : { isError: true }),
    };
    const patch = statePatch(this.view.state, outcome.state);
    const status = outcome.cancelled ? 'cancelled' : outcome.denied ? 'denied' : undefined;
    await this.append([...extra, { type: 'tool_result', message, output: outcome.ok ? (outcome.output ?? null) : null, ...(status ? { status } : {}) }, ...(patch.length ? [{ type: 'state_patched' as const, patch }] : [])]);
    this.emit({ type: 'tool-result', messageId: message.id, toolCallId: call.id, toolName: call.name, content: message.content, isError: message.isError });
    if (patch.length) this.emit({ type: 'state-delta', patch });
  }

  /** The delegation tool: the subagent works the task to an answer, bracketed as a step. */
  private async delegate(call: ToolCall): Promise<void> {
    const { agent } = this.request;
    const { agent: name, task } = (call.input ?? {}) as { agent?: string; task?: string };
    const subagent = agent.subagents.find((candidate) => candidate.name === name);
    if (!subagent || !task) {
      return this.recordResult(call, { ok: false, content: `${DELEGATION_TOOL} needs {agent, task}; agents: ${agent.subagents.map((s) => s.name).join(', ')}.`, state: this.view.state });
    }
    await this.append([{ type: 'step_started', stepName: subagent.name }]);
    this.emit({ type: 'step-started', stepName: subagent.name });
    const outcome = await runSubagent(subagent, task, {
      signal: this.signal,
      state: this.view.state,
      session: { id: this.request.sessionId, agent: subagent.name, ownerId: this.request.ownerId, durable: this.request.durable !== false },
    });
    this.emit({ type: 'step-finished', stepName: subagent.name });
    await this.recordResult(call, outcome, [{ type: 'step_finished', stepName: subagent.name }]);
  }

  private async finish(outcome: RunOutcome, before: SessionEvent[] = []): Promise<void> {
    await this.append([...before, { type: 'run_finished', runId: this.runId, outcome }]);
    this.emit({ type: 'run-finished', outcome });
  }

  private async fail(code: string, message: string): Promise<void> {
    await this.append([{ type: 'run_failed', runId: this.runId, code, message }]);
    this.emit({ type: 'run-error', code, message });
  }
}

/**
 * A subagent's task, worked to a text answer in memory: its own instructions, tools and
 * model, a fresh conversation holding only the task. Its answer is the delegation's result.
 */
async function runSubagent(
  subagent: DeepAgent,
  task: string,
  context: { signal: AbortSignal; state: JsonObject; session: { id: string; agent: string; ownerId: string; durable: boolean } },
): Promise<{ ok: boolean; content: string; output?: unknown; state: JsonObject }> {
  const messages: ChatMessage[] = [{ id: randomUUID(), role: 'user', content: task }];
  let state = context.state;
  for (let step = 0; step < subagent.maxSteps; step++) {
    try {
      const result = await generateText({
        model: resolveModel(subagent.model).model,
        instructions: subagent.instructions,
        messages: toModelMessages(messages),
        tools: modelTools(subagent, []),
        abortSignal: context.signal,
      });
      const text = result.text;
      const calls = result.toolCalls;
      const toolCalls = calls.map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input }));
      messages.push({ id: randomUUID(), role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) });
      if (toolCalls.length === 0) return { ok: true, content: text, output: { answer: text }, state };
      for (const call of toolCalls) {
        const definition = agentTools(subagent)[call.name];
        const outcome = definition
          ? await executeTool({ definition, call, state, history: toModelMessages(messages), context: { attempt: 1, signal: context.signal, session: context.session } })
          : { ok: false as const, content: `Unknown tool "${call.name}".`, state };
        state = outcome.state;
        messages.push({ id: randomUUID(), role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content, ...(outcome.ok ? {} : { isError: true }) });
      }
    } catch (error) {
      return { ok: false, content: `${subagent.name} failed: ${errorMessage(error)}`, state };
    }
  }
  return { ok: false, content: `${subagent.name} did not finish within ${subagent.maxSteps} steps.`, state };
}
