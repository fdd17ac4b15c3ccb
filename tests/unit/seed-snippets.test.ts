// The seeds' snippets (tests/seeds/, byte for byte as their documents write them; docs/seed-names.md) do what their
// documents say, on a real SQLite store through the process's own getStore(): a server append
// takes a turn, setReminder's reminder comes back once and converges on a retry, the planner
// example keeps only its editable key, and the seed's harness.generation.toolApproval gates.
// That they compile is `npm run typecheck`'s part: `tsc -p tests/seeds`, whose paths resolve the seeds' imports.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeepAgent } from '../../server/authoring';
import { runWithHandlerContext, type HandlerContext } from '../../server/runtime/tools/handler-context';
import { reduceAll } from '../../server/runtime/session/reduce';
import { startRun } from '../../server/runtime/turn-control/turns';
import { fireDueTimers } from '../../server/runtime/turn-control/timers';
import { scheduleTimer } from '../../server/runtime/tools/schedule-timer';
import { closeStore, getStore } from '../../server/store';
import { sqliteFilePath } from '../../server/store/database-url';
import { createMemoryStore } from '../../server/store/memory-store';
import { appendServerMessage } from '../seeds/server/append-message';
import { assistant } from '../seeds/server/assistant';
import planner from '../seeds/server/planner';
import { setReminder } from '../seeds/server/set-reminder';
import { toolsAssistant } from '../seeds/server/with-tools';
import { freshSqliteUrl } from '../support/database';

const saved = { DATABASE_URL: process.env.DATABASE_URL, STACKBONE_API_KEYS: process.env.STACKBONE_API_KEYS };
let url: string;

beforeAll(async () => {
  process.env.STACKBONE_MODEL = 'scripted';
  url = await freshSqliteUrl();
  await closeStore();
  process.env.DATABASE_URL = url;
  delete process.env.STACKBONE_API_KEYS; // open dev mode: the seed's append names no owner
}, 60_000);

afterAll(async () => {
  await closeStore();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (url) await rm(path.dirname(sqliteFilePath(url)), { recursive: true, force: true });
});

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
const findAssistant = (name: string): DeepAgent | undefined => (name === assistant.name ? assistant : undefined);

async function settled(sessionId: string) {
  // The seed's appendServerMessage does not wait for the turn it starts; the log says when it ended.
  await vi.waitFor(async () => expect((await getStore().readEvents(sessionId)).at(-1)?.event.type).toBe('run_finished'), { timeout: 10_000 });
  return reduceAll(await getStore().readEvents(sessionId), assistant.initialState);
}

describe('the seed snippets', () => {
  it("appendServerMessage takes a turn on the local owner's session, and setReminder's reminder, keyed by its call, lands once", async () => {
    await appendServerMessage('desk-1', 'call setReminder {"delaySeconds": 1, "reminder": "check po_42"}');
    const view = await settled('local/desk-1');
    const call = view.messages.find((message) => message.role === 'assistant' && message.toolCalls?.length);
    const toolCallId = call?.role === 'assistant' ? call.toolCalls![0]!.id : '';
    expect(view.messages.find((message) => message.role === 'tool')).toMatchObject({ toolCallId, content: '{"scheduled":true,"delaySeconds":1}' });
    // Keyed by the call, as the seed keys it. Its message takes the timer's own id, whatever id
    // it was given: that is what lets a timer fired twice add it once (docs/seed-names.md).
    const timer = await getStore().findTimer('local/desk-1', `reminder:${toolCallId}`);
    expect(timer?.messages).toEqual([{ id: `${timer?.id}.0`, role: 'user', content: 'Reminder: check po_42' }]);

    const tick = await fireDueTimers(getStore(), findAssistant, later(2));
    expect(tick).toMatchObject({ fired: 1 });
    await tick.done;
    const after = await settled('local/desk-1');
    expect(after.messages.filter((message) => message.role === 'user').map((message) => [message.id, message.content])).toEqual([
      [expect.any(String), 'call setReminder {"delaySeconds": 1, "reminder": "check po_42"}'],
      [`${timer?.id}.0`, 'Reminder: check po_42'],
    ]);
    expect(await fireDueTimers(getStore(), findAssistant, later(5))).toMatchObject({ fired: 0 });
  });

  it('setReminder run twice in one handler context (a retry) converges on one timer', async () => {
    const store = getStore();
    await appendServerMessage('desk-2', 'reply with 1 tokens');
    await settled('local/desk-2');
    const sessionId = 'local/desk-2';
    const ctx: HandlerContext = {
      event: { id: 'call_7', toolCallId: 'call_7', toolName: 'setReminder', input: { delaySeconds: 60, reminder: 'stretch' } },
      idempotencyKey: 'idem_test',
      attempt: 2,
      session: {
        id: sessionId,
        agent: assistant.name,
        ownerId: 'local',
        durable: true,
        schedule: (key, when, ...messages) => scheduleTimer(store, sessionId, key, when, messages),
      },
      signal: new AbortController().signal,
      state: {},
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await runWithHandlerContext(ctx, () =>
        setReminder.execute!({ delaySeconds: 60, reminder: 'stretch' }, { toolCallId: 'call_7', messages: [], context: {} }),
      );
      expect(result).toEqual({ scheduled: true, delaySeconds: 60 });
    }
    expect(await store.countPendingTimers(sessionId)).toBe(1);
    expect((await store.findTimer(sessionId, 'reminder:call_7'))?.messages).toMatchObject([{ role: 'user', content: 'Reminder: stretch' }]);
  });

  it('setReminder outside a tool execution throws, as the seed says handlerContext() does', async () => {
    await expect(async () => setReminder.execute!({ delaySeconds: 5, reminder: 'x' }, { toolCallId: 'c', messages: [], context: {} })).rejects.toThrow(
      'handlerContext() is only available inside a tool execute()',
    );
  });

  it('the planner example, as written, has default instructions and keeps only its editable key of a client state', async () => {
    expect(planner.instructions).toBe('You are a helpful assistant. Be brief.');
    const store = createMemoryStore();
    const run = await startRun({
      agent: planner,
      store,
      sessionId: 'o1/p1',
      ownerId: 'o1',
      source: 'agui',
      messages: [{ id: 'm1', role: 'user', content: 'reply with 1 tokens' }],
      state: { draft: 'Launch post', isAdmin: true },
    });
    await run.done;
    expect(reduceAll(await store.readEvents('o1/p1'), planner.initialState).state).toEqual({ draft: 'Launch post' });
  });

  it("the tools example's harness.generation.toolApproval pauses closeTicket for a person", async () => {
    const store = createMemoryStore();
    const run = await startRun({
      agent: toolsAssistant,
      store,
      sessionId: 'o1/t1',
      ownerId: 'o1',
      source: 'agui',
      messages: [{ id: 'm1', role: 'user', content: 'call closeTicket {"ticketId": "T-7"}' }],
    });
    await run.done;
    const view = reduceAll(await store.readEvents('o1/t1'), toolsAssistant.initialState);
    expect(Object.values(view.interrupts).map((state) => [state.record.toolName, state.record.input])).toEqual([['closeTicket', { ticketId: 'T-7' }]]);
    expect(view.messages.some((message) => message.role === 'tool')).toBe(false);
  });
});
