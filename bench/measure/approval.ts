// Item 5: an approval's round trip, from sending the decision to the approved tool's
// TOOL_CALL_RESULT reaching the client (docs/hitl.md). Each sample pauses a new thread on
// "refund order po_42 for 19.99" first (not timed), then:
//   AG-UI: a resume run `{resume: [{interruptId, status: 'resolved', payload: {approved: true}}]}`,
//          timed to TOOL_CALL_RESULT on its own response;
//   /api/hitl: `POST /api/hitl/{id}/approve {}` with the thread's session stream already open,
//          timed to TOOL_CALL_RESULT on that stream.
import { randomUUID } from 'node:crypto';
import { completedRun, hydrate, openSessionStream, runInput, timedRun } from '../lib/agui-client';
import { counts } from '../lib/mode';
import { agUiType, readSse } from '../lib/sse';
import { summarize, type Summary } from '../lib/stats';

export interface ApprovalRoundTrip {
  samples: number;
  agui: Summary;
  hitl: Summary;
}

async function pausedThread(baseUrl: string): Promise<{ threadId: string; runId: string; interruptId: string }> {
  const threadId = randomUUID();
  const input = runInput(threadId, 'refund order po_42 for 19.99');
  const run = await completedRun(baseUrl, input);
  const interruptId = run.finished?.outcome?.interrupts?.[0]?.id;
  if (!interruptId) throw new Error(`The refund did not pause for approval: ${JSON.stringify(run.finished)}`);
  return { threadId, runId: input.runId, interruptId };
}

async function overAgUi(baseUrl: string): Promise<number> {
  const paused = await pausedThread(baseUrl);
  const resume = runInput(paused.threadId, null, {
    parentRunId: paused.runId,
    resume: [{ interruptId: paused.interruptId, status: 'resolved', payload: { approved: true } }],
  });
  // Timed from sending to the TOOL_CALL_RESULT event, where the stream is left.
  const run = await timedRun(baseUrl, resume, { stopAt: 'TOOL_CALL_RESULT', keepTypes: true });
  if (run.failure || run.types.at(-1) !== 'TOOL_CALL_RESULT')
    throw new Error(`The resume did not return the tool result: ${run.failure ?? run.types.join(', ')}`);
  return run.totalMs;
}

async function overHitl(baseUrl: string): Promise<number> {
  const paused = await pausedThread(baseUrl);
  const { cursor } = await hydrate(baseUrl, paused.threadId);
  const abort = new AbortController();
  try {
    const stream = await openSessionStream(baseUrl, paused.threadId, cursor, abort.signal);
    const arrived = readSse(stream, ({ data }) => agUiType(data) === 'TOOL_CALL_RESULT');
    arrived.catch(() => undefined); // left unread when approving fails
    const sent = performance.now();
    const response = await fetch(`${baseUrl}/api/hitl/${encodeURIComponent(paused.interruptId)}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (!response.ok) throw new Error(`Approving answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    const at = await withTimeout(arrived, 10_000, 'the approved tool result on the session stream');
    return at - sent;
  } finally {
    abort.abort();
  }
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}.`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function measureApprovalRoundTrip(baseUrl: string): Promise<ApprovalRoundTrip> {
  await overAgUi(baseUrl);
  await overHitl(baseUrl);
  const agui: number[] = [];
  const hitl: number[] = [];
  for (let i = 0; i < counts.approvalSamples; i++) {
    agui.push(await overAgUi(baseUrl));
    hitl.push(await overHitl(baseUrl));
  }
  return { samples: counts.approvalSamples, agui: summarize(agui), hitl: summarize(hitl) };
}
