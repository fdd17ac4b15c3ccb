// One tool call the server runs, from the gate's "run" to its recorded result (docs/hitl.md):
// an approved edit's arguments, an undo of a dropped effect that another fork may have run
// already (docs/time-travel.md), the tool_started record, the tool itself with its context, and
// the result — or the question it asks a person when it needs input it does not have. The tool's
// run is an `execute_tool` span (docs/observability.md, "The tool span").
import type { InterruptRecord } from '../../store/pauses';
import type { SessionEvent } from '../../store/events';
import type { ToolCall } from '../../store/messages';
import { own } from '../common';
import { buildInputInterrupt, type ToolGate } from '../decisions';
import { conversationOf, type SessionView } from '../session';
import { agentTools, executeTool, toolTimeoutMs, type HandlerContext, type ToolKind } from '../tools';
import { toModelMessages } from './model-messages';
import type { ResultOutcome, RunnerRequest, Scope } from './run-types';
import { alreadyUndone, undoneElsewhere } from './undone-elsewhere';
import { inToolSpan, type ToolCallEnd } from '../../telemetry';

/** What a tool call uses of the run it runs in (turn-runner.ts hands it in, as it does a delegated task's TaskHost). */
export interface ToolCallHost {
  /** The thread as the run last wrote it. */
  view(): SessionView;
  runId(): string;
  request(): Pick<RunnerRequest, 'store' | 'sessionId'>;
  /** Aborts on a stop or a lost lease: the tool's own signal. */
  signal(): AbortSignal;
  append(events: SessionEvent[]): Promise<void>;
  recordResult(scope: Scope, call: ToolCall, outcome: ResultOutcome): Promise<void>;
  /** The session as a tool's context names it, with its timers. */
  session(scope: Scope): HandlerContext['session'];
}

/**
 * Runs one tool call the server owns and records its result (and any state it changed).
 * Returns the interrupt to open when the tool asked for input it does not have yet.
 */
export async function runServerToolCall(
  host: ToolCallHost,
  scope: Scope,
  original: ToolCall,
  kind: ToolKind,
  gate: Extract<ToolGate, { action: 'run' }>,
): Promise<InterruptRecord | undefined> {
  // An approved edit replaces the arguments wholesale; the call keeps its id.
  const call = gate.editedArgs !== undefined ? { ...original, input: gate.editedArgs } : original;
  if (kind === 'unknown') {
    await host.recordResult(scope, call, { ok: false, content: `Unknown tool "${call.name}".`, state: host.view().state });
    return undefined;
  }
  const definition = agentTools(scope.agent)[call.name]!;
  const attempt = (host.view().toolAttempts[call.id] ?? 0) + 1;
  // The server's undo of a dropped effect runs under its effect's key; a first attempt runs only if no other fork's undo of it started.
  const undoKey = scope.id ? undefined : own(host.view().undoKeys, call.id);
  if (undoKey && attempt === 1) {
    const elsewhere = await undoneElsewhere(host.request().store, host.request().sessionId, scope.agent.initialState, call, undoKey);
    if (elsewhere) {
      await host.recordResult(scope, call, alreadyUndone(elsewhere, host.view().state));
      return undefined;
    }
  }
  const grantId = gate.approval?.by === 'grant' ? gate.approval.grantId : undefined;
  await host.append([{ type: 'tool_started', toolCallId: call.id, toolName: call.name, attempt, ...(grantId ? { grantId } : {}) }]);
  // The state the tool starts from: its draft's changes are merged into the state as it is
  // when the tool ends, which other calls of the step may have changed meanwhile.
  const base = host.view().state;
  const execution: Parameters<typeof executeTool>[0] = {
    definition,
    call,
    state: base,
    history: toModelMessages(conversationOf(host.view(), scope.id).messages),
    inputAnswers: gate.answers,
    timeoutMs: toolTimeoutMs(scope.agent, call.name),
    ...(undoKey ? { idempotencyKey: undoKey } : {}),
    // Kept in the log as they come, and streamed (docs/turn-control.md, "Concurrent tools").
    onProgress: (output) =>
      host.append([{ type: 'tool_progress', toolCallId: call.id, toolName: call.name, output: output ?? null, ...(scope.id ? { scope: scope.id } : {}) }]),
    context: {
      attempt,
      payload: gate.payload,
      ...(gate.approval ? { approval: gate.approval } : {}),
      signal: host.signal(),
      session: host.session(scope),
    },
  };
  const outcome = await inToolSpan({ toolName: call.name, toolCallId: call.id, attempt }, () => executeTool(execution), toolCallEnd);
  if ('inputRequired' in outcome) return buildInputInterrupt(scope.agent, original, host.runId(), outcome.inputRequired, scope.id);
  // A call the stop cut is recorded as cancelled, like those the stopped run leaves open (stopped-run.ts).
  const result: ResultOutcome = outcome.ok
    ? { ok: true, content: outcome.content, output: outcome.output, state: outcome.state, base }
    : { ...outcome, ...(outcome.abort === 'stopped' ? { status: 'cancelled' } : {}) };
  await host.recordResult(scope, call, result);
  return undefined;
}

/** What the tool span tells of an outcome: a failure's kind is its cut-off (stopped, timeout), else the tool's own error. */
function toolCallEnd(outcome: Awaited<ReturnType<typeof executeTool>>): ToolCallEnd {
  if ('inputRequired' in outcome) return { inputRequired: true };
  return outcome.ok ? { ok: true } : { ok: false, error: outcome.error, errorType: outcome.abort ?? 'tool_error' };
}
