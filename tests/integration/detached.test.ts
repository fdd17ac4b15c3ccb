// Runs that outlive their connection (docs/internals/architecture.md, "The life of a run"): a client
// that leaves does not stop its run; any client re-joins it from a cursor; a persisted stop
// is the one way to end it early; a hung tool cannot pin its session.
import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent, type CustomEvent, type RunFinishedEvent, type TextMessageContentEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { joinStream, openRun, postRun, readThread, stopRun, type StreamedEvent, runInput } from '../support/agui';
import { backends } from '../support/backends';
import { eventually } from '../support/inspect';

const text = (events: BaseEvent[]) =>
  events
    .filter((event): event is TextMessageContentEvent => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => event.delta)
    .join('');
const deltas = (all: StreamedEvent[]) => all.filter((entry) => entry.event.type === EventType.TEXT_MESSAGE_CONTENT).length;
const tokens = (n: number) => Array.from({ length: n }, (_, i) => `token${i + 1}`).join(' ');
const ordered = (ids: (string | undefined)[]) => ids.every((id, i) => i === 0 || position(id!) > position(ids[i - 1]!));
const position = (id: string) => {
  const [seq, j = '0'] = id.split('.');
  return Number(seq) * 1e6 + Number(j);
};
const settled = (baseUrl: string, agent: string, threadId: string) =>
  eventually(
    async () => {
      const { body: thread } = await readThread(baseUrl, agent, threadId);
      return thread.status !== 'running' ? thread : undefined;
    },
    20_000,
    'the run to end',
  );

for (const server of backends()) {
  describe(`detached runs on ${server.kind}`, () => {
    it('a client that disconnects mid-turn does not stop it: the whole reply is in the log', async () => {
      const threadId = randomUUID();
      const head = await openRun(server.url, 'helpdesk', runInput(threadId, 'slowly reply with 40 tokens'), (_, all) => deltas(all) === 5);
      expect(head.events.at(-1)?.type).toBe(EventType.TEXT_MESSAGE_CONTENT);
      const during = await readThread(server.url, 'helpdesk', threadId);
      expect(during.body).toMatchObject({ status: 'running', activeRun: { runId: expect.any(String) } });

      const thread = await settled(server.url, 'helpdesk', threadId);
      expect(thread.status).toBe('idle');
      const reply = thread.messages.at(-1);
      expect(reply.role).toBe('assistant');
      expect(reply.parts).toContainEqual(expect.objectContaining({ type: 'text', content: tokens(40) }));
    });

    it('re-joins with Last-Event-ID from the middle and gets exactly the missing events; a finished run replays whole', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      const head = await openRun(server.url, 'helpdesk', runInput(threadId, 'slowly reply with 30 tokens', runId), (_, all) => deltas(all) === 6);
      expect(ordered(head.ids)).toBe(true);
      const tail = await joinStream(server.url, 'helpdesk', { threadId, runId }, { lastEventId: head.ids.at(-1)! });
      expect(tail.status).toBe(200);
      expect(tail.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
      expect(text([...head.events, ...tail.events])).toBe(tokens(30));
      expect(ordered([...head.ids, ...tail.ids])).toBe(true);

      // After the end, the run replays from the log: the same events under the same ids.
      const replay = await joinStream(server.url, 'helpdesk', { threadId, runId, offset: '-1' });
      expect(replay.ids).toEqual([...head.ids, ...tail.ids]);
      expect(replay.events).toEqual([...head.events, ...tail.events]);
      // And from any cursor, exactly what follows it.
      const from = await joinStream(server.url, 'helpdesk', { threadId, runId, offset: head.ids[3]! });
      expect(from.ids).toEqual([...head.ids.slice(4), ...tail.ids]);

      // A POST re-sent with Last-Event-ID (a dropped request, retried) re-joins instead of running twice.
      const again = await openRun(server.url, 'helpdesk', runInput(threadId, 'slowly reply with 30 tokens', runId), undefined, {
        'last-event-id': head.ids.at(-1)!,
      });
      expect(again.ids).toEqual(tail.ids);
      const thread = await readThread(server.url, 'helpdesk', threadId);
      expect(thread.body.messages.filter((message: { role: string }) => message.role === 'user')).toHaveLength(1);
    });

    it('hydration JSON matches the session: messages, state, the open interrupts', async () => {
      const threadId = randomUUID();
      const { events } = await postRun(server.url, 'ledger', runInput(threadId, 'call recordEffect {"key":"hydrate"}'));
      const finished = events.at(-1) as RunFinishedEvent;
      const interrupt = (finished.outcome as { interrupts: { id: string; toolCallId: string }[] }).interrupts[0]!;
      const { status, body: thread } = await readThread(server.url, 'ledger', threadId);
      expect(status).toBe(200);
      expect(thread).toMatchObject({
        threadId,
        status: 'interrupted',
        activeRun: null,
        state: { notes: [] },
        interrupts: { runId: finished.runId, pending: [expect.objectContaining({ id: interrupt.id, toolCallId: interrupt.toolCallId, reason: 'tool_call' })] },
      });
      const snapshot = events.find((event) => event.type === EventType.MESSAGES_SNAPSHOT) as unknown as { messages: { id: string }[] };
      expect(thread.messages.map((message: { id: string }) => message.id)).toEqual(snapshot.messages.map((message) => message.id));
      expect(thread.messages.at(-1).parts).toContainEqual(expect.objectContaining({ type: 'tool-call', id: interrupt.toolCallId, name: 'recordEffect' }));

      const unknown = await readThread(server.url, 'ledger', randomUUID());
      expect(unknown.status).toBe(404);
      const badCursor = await joinStream(server.url, 'ledger', { threadId, offset: 'yesterday' });
      expect(badCursor).toMatchObject({ status: 400, body: { error: { code: 'invalid_cursor' } } });
    });

    it('the session stream shows a turn from another wire and an out-of-band decision with its continuation, live', async () => {
      const threadId = randomUUID();
      const { events } = await postRun(server.url, 'ledger', runInput(threadId, 'call recordEffect {"key":"watched"}'));
      const interrupt = ((events.at(-1) as RunFinishedEvent).outcome as { interrupts: { id: string }[] }).interrupts[0]!;
      const { body: thread } = await readThread(server.url, 'ledger', threadId);
      const watching = joinStream(
        server.url,
        'ledger',
        { threadId, offset: thread.cursor },
        { stop: (entry, all) => all.filter((e) => e.event.type === EventType.RUN_FINISHED).length === 2 },
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const approved = await fetch(`${server.url}/api/hitl/${interrupt.id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(approved.status).toBe(200);
      await settled(server.url, 'ledger', threadId);
      const chat = await fetch(`${server.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stackbone-session': threadId },
        body: JSON.stringify({ model: 'ledger', messages: [{ role: 'user', content: 'reply with 3 tokens' }] }),
      });
      expect(chat.status).toBe(200);
      const seen = await watching;
      const types = seen.events.map((event) => event.type);
      expect(types[0]).toBe(EventType.RUN_STARTED);
      expect(types.filter((type) => type === EventType.RUN_STARTED)).toHaveLength(2);
      expect(types).toContain(EventType.TOOL_CALL_RESULT);
      expect(text(seen.events)).toContain(tokens(3));
      expect(ordered(seen.ids)).toBe(true);
    });

    it('stop keeps a finished tool with its state, closes the unstarted call as not run, and nothing runs on the next message', async () => {
      const threadId = randomUUID();
      const runId = randomUUID();
      const key = `stop-${randomUUID().slice(0, 8)}`;
      const reading = openRun(
        server.url,
        'ledger',
        runInput(threadId, `call noteEffect {"key":"${key}-a","sleepMs":800}; call noteEffect {"key":"${key}-b"}`, runId),
        undefined,
      );
      // Stop once the first call is running (it takes 800 ms and ignores its signal).
      await eventually(() => Promise.resolve(readLedger(server.ledgerFile).some((line) => line.key === `${key}-a`)), 10_000, 'the first call to start');
      const [first, second] = await Promise.all([stopRun(server.url, 'ledger', { threadId, runId }), stopRun(server.url, 'ledger', { threadId, runId })]);
      expect(first.body).toMatchObject({ stopped: true, runId });
      // The same stop twice is one stop.
      expect(second.body.requestedAt).toBe(first.body.requestedAt);
      const { events } = await reading;
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'cancelled' } });
      const cut = events.find((event) => event.type === EventType.CUSTOM && (event as CustomEvent).name === 'stackbone.tools_stopped') as CustomEvent;

      const { body: thread } = await readThread(server.url, 'ledger', threadId);
      expect(thread.status).toBe('idle');
      expect(thread.state.notes).toEqual([`${key}-a`]);
      const results = thread.messages.flatMap((message: { parts: { type: string; content?: string; toolCallId?: string }[] }) =>
        message.parts.filter((part) => part.type === 'tool-result'),
      );
      expect(results.map((part: { content?: string }) => part.content)).toEqual([
        JSON.stringify({ noted: `${key}-a` }),
        'Not run: the run was stopped before this call started.',
      ]);
      // The call the stop cut shows as stopped, live and after a reload; the finished one does not.
      expect(cut.value).toEqual({ toolCallIds: [results[1].toolCallId] });
      expect(thread.stoppedToolCallIds).toEqual([results[1].toolCallId]);

      const next = await postRun(server.url, 'ledger', runInput(threadId, 'reply with 2 tokens'));
      expect(next.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      expect(
        readLedger(server.ledgerFile)
          .filter((line) => line.key.startsWith(key))
          .map((line) => line.key),
      ).toEqual([`${key}-a`]);
      // A stopped run stays stopped: a stop now stops nothing.
      expect((await stopRun(server.url, 'ledger', { threadId, runId })).body).toMatchObject({ stopped: false, reason: 'not_running' });
    });

    it('a stop keeps the text up to its frontier; a stop for an older run leaves the newer one running', async () => {
      const threadId = randomUUID();
      const older = randomUUID();
      await postRun(server.url, 'helpdesk', runInput(threadId, 'reply with 2 tokens', older));
      const runId = randomUUID();
      let stopped: Promise<unknown> | undefined;
      const seen = await openRun(server.url, 'helpdesk', runInput(threadId, 'slowly reply with 200 tokens', runId), (entry, all) => {
        if (deltas(all) === 3 && !stopped) stopped = stopRun(server.url, 'helpdesk', { threadId, runId: older });
        if (deltas(all) === 10 && entry.event.type === EventType.TEXT_MESSAGE_CONTENT)
          stopped = stopRun(server.url, 'helpdesk', { threadId, runId, frontier: entry.id });
        return false;
      });
      expect(seen.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'cancelled' } });
      const { body: thread } = await readThread(server.url, 'helpdesk', threadId);
      expect(thread.messages.at(-1).parts).toContainEqual(expect.objectContaining({ type: 'text', content: tokens(10) }));
      // The cancelled run's last MESSAGES_SNAPSHOT shows what was kept, whatever streamed after the frontier.
      const snapshot = seen.events.findLast((event) => event.type === EventType.MESSAGES_SNAPSHOT) as unknown as { messages: { content?: string }[] };
      expect(snapshot.messages.at(-1)?.content).toBe(tokens(10));

      const stale = await stopRun(server.url, 'helpdesk', { threadId, runId: older });
      expect(stale.body).toMatchObject({ stopped: false });
    });

    it('a hung tool times out, the session is usable again, and the sweep answers at once', async () => {
      const threadId = randomUUID();
      const started = Date.now();
      const { events } = await postRun(server.url, 'ledger', runInput(threadId, 'call hang'));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(events.find((event) => event.type === EventType.TOOL_CALL_RESULT)).toMatchObject({ content: 'Tool "hang" timed out after 1s.' });
      expect(events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
      const next = await postRun(server.url, 'ledger', runInput(threadId, 'reply with 2 tokens'));
      expect(next.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
      const sweep = await fetch(`${server.url}/api/cron/recover`);
      expect(sweep.status).toBe(200);
    });
  });
}
