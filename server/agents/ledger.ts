// A fixture agent for the durability tests (listed only with STACKBONE_FIXTURE_AGENTS=1).
// Its one tool records a side effect in a file ledger, idempotently by toolCallId, and can
// dawdle afterwards so that a test can kill the server while it runs.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { defineDeepAgent, handlerContext, tool } from '../agent-kit';

export interface LedgerLine {
  /** `tick`: tickEffect's work in progress, one line per interval while it runs. */
  kind: 'attempt' | 'effect' | 'tick';
  toolCallId: string;
  /** handlerContext().idempotencyKey: what makes an effect once (toolCallId is unique only within its session). */
  idempotencyKey: string;
  attempt: number;
  key: string;
  at: string;
}

export function ledgerFile(): string {
  const file = process.env.STACKBONE_LEDGER_FILE;
  if (!file) throw new Error('STACKBONE_LEDGER_FILE is not set.');
  return file;
}

export function readLedger(file: string): LedgerLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerLine);
}

/** The fields the tools share, with the labels a form shows. */
const KEY = z.string().meta({ title: 'Key', description: 'What to record' });
const SLEEP_MS = z.number().int().min(0).max(60_000).default(0).meta({ title: 'Wait afterwards (ms)' });

const recordEffect = tool({
  title: 'Record an effect',
  description: 'Record a side effect in the ledger (once per call); the first attempt then waits sleepMs.',
  inputSchema: z.object({ key: KEY, sleepMs: SLEEP_MS }),
  execute: async ({ key, sleepMs }) => {
    const { event, attempt, signal, idempotencyKey } = handlerContext();
    const file = ledgerFile();
    const line = (kind: LedgerLine['kind']) =>
      JSON.stringify({ kind, toolCallId: event.toolCallId, idempotencyKey, attempt, key, at: new Date().toISOString() }) + '\n';
    appendFileSync(file, line('attempt'));
    // The idempotency key: a repeated execution of the same call changes nothing.
    const done = readLedger(file).some((entry) => entry.kind === 'effect' && entry.idempotencyKey === idempotencyKey);
    if (!done) appendFileSync(file, line('effect'));
    // Only the first attempt dawdles: a test kills the server then, and the retry finishes.
    if (sleepMs > 0 && attempt === 1) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, sleepMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
    }
    return { recorded: key, attempt };
  },
});

// Tests change the tool's schema between a pause and its resume by restarting the server with
// STACKBONE_LEDGER_SCHEMA=v2, as a deploy would.
const recordEffectV2 = tool({
  ...recordEffect,
  inputSchema: z.object({
    key: KEY,
    sleepMs: z.number().int().min(0).default(0).meta({ title: 'Wait afterwards (ms)' }),
    note: z.string().optional().meta({ title: 'Note' }),
  }),
});

const expiringEffect = tool({
  title: 'Record an effect (approval expires in a second)',
  description: 'Record a side effect; the approval request expires after a second.',
  inputSchema: z.object({ key: KEY }),
  execute: async ({ key }) => recordEffect.execute!({ key, sleepMs: 0 }, undefined as never),
});

// Runs freely: records an effect and a note in shared state, then takes sleepMs to return,
// ignoring its signal — a stop while it runs must keep its result (it finishes within grace).
const noteEffect = tool({
  title: 'Record and note an effect',
  description: 'Record a side effect and note it in shared state; takes sleepMs to return.',
  inputSchema: z.object({ key: KEY, sleepMs: SLEEP_MS }),
  execute: async ({ key, sleepMs }) => {
    const { event, attempt, state, idempotencyKey } = handlerContext();
    appendFileSync(
      ledgerFile(),
      JSON.stringify({ kind: 'effect', toolCallId: event.toolCallId, idempotencyKey, attempt, key, at: new Date().toISOString() }) + '\n',
    );
    state.notes = [...((state.notes as string[] | undefined) ?? []), key];
    if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
    return { noted: key };
  },
});

// Never returns and ignores its signal: only its timeout (1s) ends it.
const unnoteEffect = tool({
  title: 'Take back a noted effect',
  description: 'Record, once per call, that a noted effect was taken back (the undo of noteEffect).',
  inputSchema: z.object({ key: KEY }),
  execute: async ({ key }) => ({ undone: key, new: effectOnce(`undo:${key}`) }),
});

const hang = tool({
  title: 'Hang (never returns)',
  description: 'Hang forever.',
  inputSchema: z.object({}),
  execute: (): Promise<string> => new Promise<string>(() => undefined),
});

/** Records the call's effect once (by its idempotency key), as recordEffect does; answers whether this attempt made it. */
export function effectOnce(key: string): boolean {
  const { event, attempt, idempotencyKey } = handlerContext();
  const file = ledgerFile();
  if (readLedger(file).some((entry) => entry.kind === 'effect' && entry.idempotencyKey === idempotencyKey)) return false;
  appendFileSync(file, JSON.stringify({ kind: 'effect', toolCallId: event.toolCallId, idempotencyKey, attempt, key, at: new Date().toISOString() }) + '\n');
  return true;
}

// Gated the AI SDK's own way (needsApproval), with no toolApproval entry (docs/hitl.md, "Policies").
const needsEffect = tool({
  title: 'Record an effect (the tool asks for approval)',
  description: 'Record a side effect; the tool itself asks for approval (needsApproval).',
  inputSchema: z.object({ key: KEY }),
  needsApproval: true,
  execute: async ({ key }) => ({ recorded: key, new: effectOnce(key) }),
});

// Its policy throws: it must never run (fail closed).
const brokenPolicyEffect = tool({
  title: 'Record an effect (broken policy)',
  description: 'Record a side effect; its approval policy cannot be evaluated.',
  inputSchema: z.object({ key: KEY }),
  execute: async ({ key }) => ({ recorded: key, new: effectOnce(key) }),
});

// Approved only by a key holder: never on a turn that cannot pause.
const deskEffect = tool({
  title: 'Record an effect (a key holder approves)',
  description: 'Record a side effect a key holder must approve.',
  inputSchema: z.object({ key: KEY }),
  execute: async ({ key }) => ({ recorded: key, new: effectOnce(key) }),
});

// Works for ms: records its effect once, then a tick line every 100 ms until it is done or its
// signal aborts (a stop, a timeout, or a lost lease), so a test sees when each attempt stopped.
const tickEffect = tool({
  title: 'Record an effect and keep working',
  description: 'Record a side effect, then keep working for ms, ticking every 100 ms.',
  inputSchema: z.object({ key: KEY, ms: z.number().int().min(0).max(60_000).meta({ title: 'Work for (ms)' }) }),
  execute: async ({ key, ms }) => {
    const { event, attempt, signal, idempotencyKey } = handlerContext();
    effectOnce(key);
    const until = Date.now() + ms;
    while (Date.now() < until && !signal.aborted) {
      appendFileSync(
        ledgerFile(),
        JSON.stringify({ kind: 'tick', toolCallId: event.toolCallId, idempotencyKey, attempt, key, at: new Date().toISOString() }) + '\n',
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { recorded: key, attempt, stopped: signal.aborted };
  },
});

// Schedules a user message for this session (a durable timer), e.g. one that calls a gated tool.
const scheduleMessage = tool({
  title: 'Schedule a message',
  description: 'Schedule a user message for this conversation after inMs.',
  inputSchema: z.object({
    text: z.string().min(1).meta({ title: 'Message' }),
    inMs: z.number().int().min(0).max(600_000).meta({ title: 'Send in (ms)' }),
  }),
  execute: async ({ text, inMs }) => {
    const { event, session } = handlerContext();
    const timer = await session.schedule(
      `message:${event.toolCallId}`,
      { delay: inMs },
      { id: `timer-message-${event.toolCallId}`, role: 'user', content: text },
    );
    return { scheduled: true, at: timer.fireAt };
  },
});

// A subagent with the same gated tool, so that tests can pause inside a delegated task.
const worker = defineDeepAgent({
  name: 'ledger-worker',
  displayName: 'Ledger worker',
  description: 'Records what it is asked to, after approval.',
  model: 'scripted/ledger-worker',
  instructions: 'Record what you are asked to record.',
  tools: { recordEffect },
  toolApproval: { recordEffect: { policy: 'user-approval', describe: (input: { key: string }) => `Record ${input.key} (delegated)` } },
});

export default defineDeepAgent({
  name: 'ledger',
  displayName: 'Ledger',
  description: 'Test fixture: records side effects in a ledger after a human approval.',
  model: 'scripted/ledger',
  instructions: 'Record what you are asked to record.',
  tools: {
    recordEffect: process.env.STACKBONE_LEDGER_SCHEMA === 'v2' ? recordEffectV2 : recordEffect,
    expiringEffect,
    noteEffect,
    unnoteEffect,
    hang,
    needsEffect,
    brokenPolicyEffect,
    deskEffect,
    tickEffect,
    scheduleMessage,
  },
  toolTimeouts: { hang: '1s' },
  // Notes go into one list in the order they were asked for: one call at a time.
  toolLanes: { noteEffect: 'notes' },
  // A fork that leaves a noted effect behind offers to take it back, with approval (docs/time-travel.md).
  undo: { noteEffect: ({ input }) => ({ tool: 'unnoteEffect', input: { key: input.key } }) },
  initialState: { notes: [] },
  toolApproval: {
    recordEffect: { policy: 'user-approval', describe: (input: { key: string }) => `Record ${input.key}` },
    unnoteEffect: { policy: 'user-approval', describe: (input: { key: string }) => `Take back ${input.key}` },
    expiringEffect: { policy: 'user-approval', ttl: '1s', describe: (input: { key: string }) => `Record ${input.key} (expires in a second)` },
    brokenPolicyEffect: () => {
      throw new Error('the policy service is down');
    },
    deskEffect: { policy: 'user-approval', approvers: 'key-holders', describe: (input: { key: string }) => `Record ${input.key} (for a key holder)` },
    tickEffect: { policy: 'user-approval', describe: (input: { key: string; ms: number }) => `Record ${input.key}, then work for ${input.ms} ms` },
  },
  subagents: [worker],
});
