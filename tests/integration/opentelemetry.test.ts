// OpenTelemetry end to end (docs/observability.md): a real server with OTEL_EXPORTER_OTLP_ENDPOINT
// pointing at a collector inside this test. A turn that looks up an order shows its run, model
// and tool spans with GenAI's attributes; a tool that fails is an error; a turn that pauses for
// approval is approved by a second server process after the first is killed, and the approval
// span — from the pause to the decision — links to the first process's run span, the
// continuation to the approval. The approval metrics count it, and the pending count survives the
// restart because it is read from the database.
import { randomUUID } from 'node:crypto';
import { EventType, type RunFinishedEvent, type ToolCallStartEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { freshPostgresUrl, freshSqliteUrl } from '../support/database';
import { eventually, readSessionEvents } from '../support/inspect';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedPoint, type ReceivedSpan } from '../support/otlp-receiver';
import { startServer, type TestServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3411, postgres: 3412 } as const;
const ERROR = 2;
/** How far apart OpenTelemetry's clock and the wall clock may drift in one test's processes. */
const CLOCKS_APART_MS = 50;

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

async function turn(server: TestServer, text: string) {
  const threadId = randomUUID();
  const runId = randomUUID();
  const { events } = await postRun(server.url, 'helpdesk', { threadId, runId, messages: [userMessage(text)] });
  const finished = events.find((event) => event.type === EventType.RUN_FINISHED) as RunFinishedEvent | undefined;
  if (!finished) throw new Error(`the turn "${text}" did not finish: ${JSON.stringify(events.at(-1))}`);
  const toolCallIds = events.filter((event) => event.type === EventType.TOOL_CALL_START).map((event) => (event as ToolCallStartEvent).toolCallId);
  return { threadId, runId, finished, toolCallIds };
}

type Turn = Awaited<ReturnType<typeof turn>>;

const spanOf = (found: ReceivedSpan[], name: string, attributes: Record<string, unknown> = {}) =>
  found.find((span) => span.name === name && Object.entries(attributes).every(([key, value]) => span.attributes[key] === value));
const runSpan = (runId: string) => spanOf(receiver.spans, 'invoke_agent helpdesk', { 'stackbone.run.id': runId });
const childrenOf = (parent: ReceivedSpan) => receiver.spans.filter((span) => span.parentSpanId === parent.spanId && span.traceId === parent.traceId);
/** The last value a metric had for these attributes, among the points received after `since`. */
const lastPoint = (metric: string, attributes: Record<string, unknown>, since = 0): ReceivedPoint | undefined =>
  receiver.points.findLast(
    (point) => point.metric === metric && point.receivedAt >= since && Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  );

for (const { kind, ledgerFile } of backends()) {
  describe(`OpenTelemetry on ${kind}`, () => {
    it('exports run, model, tool and approval spans with the gen_ai.* attributes, the approval linked across a restart, and the approval metrics', async () => {
      // A database of its own: the pending count it reports is the whole database's.
      const databaseUrl = kind === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl('stackbone_otel');
      const env = {
        ...fixtureEnv(ledgerFile),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'stackbone-otel-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_METRIC_EXPORT_INTERVAL: '300',
      };
      const boot = () => startServer({ port: PORTS[kind], databaseUrl, env });

      // The receiver hears both kinds' servers: each read below is of this test's own runs, or since its own start.
      const bootedAt = Date.now();
      let server = await boot();
      let lookup: Turn, failing: Turn, paused: Turn;
      try {
        lookup = await turn(server, 'Look up order po_42');
        failing = await turn(server, 'call lookupOrder {"orderId":"nope"}');
        paused = await turn(server, 'Close ticket T-7');
        expect(paused.finished.outcome?.type).toBe('interrupt');
        // What the first process sent before it dies: the paused run, and the pause counted.
        await eventually(
          async () => runSpan(paused.runId) && lastPoint('stackbone.approvals.pending', { 'gen_ai.tool.name': 'closeTicket' }, bootedAt),
          15_000,
          'the first server to export the pause',
        );
      } finally {
        await server.kill('SIGKILL');
      }
      const interrupt = paused.finished.outcome?.type === 'interrupt' ? paused.finished.outcome.interrupts[0]! : undefined;
      expect(interrupt).toBeDefined();

      const restartedAt = Date.now();
      server = await boot();
      try {
        // Read from the database: the second process reports the pause the first one opened.
        const pendingAfterRestart = await eventually(
          async () => lastPoint('stackbone.approvals.pending', { 'gen_ai.tool.name': 'closeTicket' }, restartedAt),
          15_000,
          'the restarted server to report what waits',
        );
        expect(pendingAfterRestart.value).toBe(1);
        const response = await fetch(`${server.url}/api/hitl/${interrupt!.id}/approve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.status).toBe(200);
        await eventually(
          async () => (await readSessionEvents(databaseUrl, paused.threadId)).at(-1)?.type === 'run_finished',
          20_000,
          'the continuation to finish',
        );
        await eventually(
          async () =>
            spanOf(receiver.spans, 'invoke_agent helpdesk', { 'stackbone.run.resumes': paused.runId, 'stackbone.run.outcome': 'success' }) &&
            lastPoint('stackbone.approvals.decided', { 'gen_ai.tool.name': 'closeTicket', 'stackbone.approval.outcome': 'approve' }, restartedAt),
          15_000,
          'the second server to export the approval',
        );
        // Once decided, nothing waits: the restarted server says so.
        const approvedAt = Date.now();
        await eventually(
          async () => lastPoint('stackbone.approvals.pending', { 'gen_ai.tool.name': 'closeTicket' }, approvedAt)?.value === 0,
          15_000,
          'the pending count to drop to 0',
        );
      } finally {
        await server.kill();
      }

      // The run: GenAI's invoke_agent span, ended with its outcome.
      const looked = runSpan(lookup.runId)!;
      expect(looked.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'helpdesk',
        'gen_ai.conversation.id': lookup.threadId,
        'stackbone.run.outcome': 'success',
      });
      expect(looked.resource['service.name']).toBe('stackbone-otel-test');
      // A trace of its own, linked to the request that started it (Next's span of the route).
      expect(looked.parentSpanId).toBeUndefined();
      const request = looked.links.find((link) => link.attributes['stackbone.link'] === 'request')!;
      expect(receiver.spans.find((span) => span.spanId === request.spanId)?.name).toBe('executing api route (app) /api/agents/[name]');

      // Each model call: a chat span under the run, with the provider's usage.
      const chats = childrenOf(looked).filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
      expect(chats.map((span) => span.attributes['gen_ai.response.finish_reasons'])).toEqual([['tool-calls'], ['stop']]);
      for (const chat of chats) {
        expect(chat.name).toBe(`chat ${chat.attributes['gen_ai.request.model']}`);
        expect(chat.attributes).toMatchObject({ 'gen_ai.provider.name': 'scripted', 'gen_ai.agent.name': 'helpdesk' });
        expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
        expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
      }

      // The tool call: execute_tool under the run, named by its call id as the client saw it.
      const tool = childrenOf(looked).find((span) => span.name === 'execute_tool lookupOrder')!;
      expect(tool.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookupOrder',
        'gen_ai.tool.call.id': lookup.toolCallIds[0],
      });
      expect(tool.status.code).not.toBe(ERROR);
      const failed = childrenOf(runSpan(failing.runId)!).find((span) => span.name === 'execute_tool lookupOrder')!;
      expect(failed.status).toMatchObject({ code: ERROR, message: expect.stringContaining('No order "nope"') });
      expect(failed.attributes['error.type']).toBe('tool_error');

      // The approval: its own span from the pause to the decision, emitted by the second process,
      // linked to the first process's run span; the continuation links to it.
      const pausedRun = runSpan(paused.runId)!;
      expect(pausedRun.attributes['stackbone.run.outcome']).toBe('interrupt');
      const approval = spanOf(receiver.spans, 'approval closeTicket', { 'stackbone.interrupt.id': interrupt!.id })!;
      expect(approval.attributes).toMatchObject({
        'gen_ai.tool.name': 'closeTicket',
        'gen_ai.tool.call.id': interrupt!.toolCallId,
        'gen_ai.conversation.id': paused.threadId,
        'stackbone.run.id': paused.runId,
        'stackbone.approval.decision': 'approved',
        'stackbone.approval.outcome': 'approve',
        'stackbone.approval.channel': 'hitl',
      });
      expect(approval.links).toEqual([{ traceId: pausedRun.traceId, spanId: pausedRun.spanId, attributes: { 'stackbone.link': 'paused_run' } }]);
      // It began when the first process paused and ended after the second one started. The paused
      // run's span ends on OpenTelemetry's clock (the process's time origin plus its monotonic time),
      // the approval begins at the interrupt's stored time (the wall clock): the two drift apart by a
      // few ms over a process's life (CI once saw the approval begin 2 ms after the run's span ended).
      expect(approval.startMs).toBeLessThanOrEqual(pausedRun.endMs + CLOCKS_APART_MS);
      expect(approval.endMs).toBeGreaterThanOrEqual(restartedAt);
      const waitedMs = approval.attributes['stackbone.approval.time_to_decide_ms'] as number;
      expect(Math.abs(waitedMs - (approval.endMs - approval.startMs))).toBeLessThanOrEqual(1);
      const continuation = spanOf(receiver.spans, 'invoke_agent helpdesk', { 'stackbone.run.resumes': paused.runId })!;
      expect(continuation.attributes['stackbone.run.outcome']).toBe('success');
      expect(continuation.links.map((link) => [link.attributes['stackbone.link'], link.spanId])).toEqual([
        ['approval', approval.spanId],
        ['paused_run', pausedRun.spanId],
        ['request', approval.parentSpanId],
      ]);
      expect(childrenOf(continuation).map((span) => span.name)).toContain('execute_tool closeTicket');

      // The metrics: one pause opened (counted by the first process), decided by the second, timed as the span was.
      const approved = { 'gen_ai.tool.name': 'closeTicket', 'stackbone.approval.outcome': 'approve' };
      expect(lastPoint('stackbone.approvals.opened', { 'gen_ai.tool.name': 'closeTicket' }, bootedAt)?.value).toBe(1);
      expect(lastPoint('stackbone.approvals.decided', approved, restartedAt)?.value).toBe(1);
      const timed = lastPoint('stackbone.approval.time_to_decide', approved, restartedAt)!;
      expect(timed.count).toBe(1);
      expect(timed.sum).toBeCloseTo(waitedMs / 1000, 2);
    });
  });
}
