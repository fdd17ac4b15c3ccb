import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent, type MessagesSnapshotEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { newHttpAgent, postRun, runHttpAgent, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { countRows } from '../support/inspect';

const types = (events: BaseEvent[]) => events.map((event) => event.type);

for (const server of backends()) {
  describe(`AG-UI wire on ${server.kind}`, () => {
    it('serves HttpAgent a run whose every event validates, without a client warning', async () => {
      const agent = newHttpAgent(server.url, 'support');
      const { events, logged, result } = await runHttpAgent(agent, 'look up order ord_42');
      expect(logged).toEqual([]);
      expect(types(events)[0]).toBe(EventType.RUN_STARTED);
      expect(types(events)).toEqual(
        expect.arrayContaining([
          EventType.STATE_SNAPSHOT,
          EventType.TOOL_CALL_START,
          EventType.TOOL_CALL_ARGS,
          EventType.TOOL_CALL_END,
          EventType.TOOL_CALL_RESULT,
          EventType.TEXT_MESSAGE_CONTENT,
        ]),
      );
      expect(types(events)).not.toContain(EventType.MESSAGES_SNAPSHOT);
      expect(types(events).at(-1)).toBe(EventType.RUN_FINISHED);
      const reply = agent.messages.at(-1)!;
      expect(reply.role).toBe('assistant');
      expect(String(reply.content)).toBe('Order ord_42 — Analytical Engine manual for Ada Lovelace, delivered, $19.99.');
      expect(result.newMessages.length).toBeGreaterThanOrEqual(3);
    });

    it('opens a second run on the thread with a MESSAGES_SNAPSHOT of the first exchange, and adds no duplicate', async () => {
      const threadId = randomUUID();
      const agent = newHttpAgent(server.url, 'support', threadId);
      await runHttpAgent(agent, 'hello');
      const firstIds = agent.messages.map((message) => message.id);
      const { events, logged } = await runHttpAgent(agent, 'look up order ord_7');
      expect(logged).toEqual([]);
      const snapshot = events.find((event) => event.type === EventType.MESSAGES_SNAPSHOT) as MessagesSnapshotEvent;
      expect(snapshot).toBeDefined();
      expect(snapshot.messages.slice(0, firstIds.length).map((message) => message.id)).toEqual(firstIds);
      // HttpAgent echoed its whole history back: the log holds each message once.
      const ids = agent.messages.map((message) => message.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(agent.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['hello', 'look up order ord_7']);
    });

    it('costs a constant number of event-log writes for 200 and 2,000 streamed tokens', async () => {
      const rowsFor = async (tokens: number) => {
        const threadId = randomUUID();
        const { events } = await postRun(server.url, 'support', { threadId, runId: randomUUID(), messages: [userMessage(`reply with ${tokens} tokens`)] });
        expect(events.filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)).toHaveLength(tokens);
        return (await countRows(server.databaseUrl, threadId)).events;
      };
      const small = await rowsFor(200);
      const large = await rowsFor(2000);
      // run_started + the user message, then the coalesced step + run_finished.
      expect(small).toBe(4);
      expect(large).toBe(4);
    });

    it('plans into shared state with a live STATE_DELTA that applies to the snapshot', async () => {
      const agent = newHttpAgent(server.url, 'planner');
      const { events, logged } = await runHttpAgent(agent, 'plan a launch: write post, email list, tweet');
      expect(logged).toEqual([]);
      expect(types(events)).toContain(EventType.STATE_DELTA);
      expect(agent.state.todos.map((todo: { title: string }) => todo.title)).toEqual(['Write post', 'Email list', 'Tweet']);
    });

    it('keeps only editable state from the client, validated, and refuses a bad value naming its path', async () => {
      const threadId = randomUUID();
      const first = await postRun(server.url, 'planner', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('hello')],
        state: { draft: 'Launch notes', todos: [{ id: 'x', title: 'forged', status: 'done' }] },
      });
      expect(first.events.find((event) => event.type === EventType.STATE_SNAPSHOT)).toMatchObject({ snapshot: { draft: 'Launch notes', todos: [] } });
      const before = await countRows(server.databaseUrl, threadId);
      const bad = await postRun(server.url, 'planner', { threadId, runId: randomUUID(), messages: [userMessage('again')], state: { draft: 42 } });
      expect(types(bad.events)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
      expect(bad.events[1]).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('draft') });
      expect(await countRows(server.databaseUrl, threadId)).toEqual(before);
      const agent = newHttpAgent(server.url, 'planner', threadId);
      const { events } = await runHttpAgent(agent, 'and now?');
      expect(events.find((event) => event.type === EventType.STATE_SNAPSHOT)).toMatchObject({ snapshot: { draft: 'Launch notes' } });
    });

    describe('bad requests get JSON errors and change nothing', () => {
      const cases: [string, string, string | object, number, RegExp][] = [
        ['malformed JSON', 'support', '{"threadId": ', 400, /not valid JSON/],
        ['a body of the wrong shape', 'support', { threadId: 'x', runId: 'y', messages: 'hello' }, 400, /messages/],
        ['a missing threadId', 'support', { runId: 'y', messages: [] }, 400, /threadId/],
        ['an unknown agent', 'nobody', { threadId: 'x', runId: 'y', messages: [] }, 404, /No agent named "nobody"/],
      ];
      for (const [name, agent, body, status, message] of cases) {
        it(name, async () => {
          const before = await countRows(server.databaseUrl);
          const response = await postRun(server.url, agent, body);
          expect(response.status).toBe(status);
          expect(response.contentType).toContain('application/json');
          expect(JSON.parse(response.text).error.message).toMatch(message);
          expect(await countRows(server.databaseUrl)).toEqual(before);
        });
      }

      it('a tool result for a call that is not open: RUN_ERROR with a code, nothing written', async () => {
        const before = await countRows(server.databaseUrl);
        const { status, events } = await postRun(server.url, 'support', {
          threadId: randomUUID(),
          runId: randomUUID(),
          messages: [{ id: randomUUID(), role: 'tool', toolCallId: 'call_forged', content: 'refunded' }],
        });
        expect(status).toBe(200);
        expect(types(events)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
        expect(events[1]).toMatchObject({ code: 'unknown_tool_call' });
        expect(await countRows(server.databaseUrl)).toEqual(before);
      });
    });
  });
}
