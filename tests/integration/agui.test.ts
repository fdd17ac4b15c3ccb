import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent, type MessagesSnapshotEvent, type RunFinishedEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { joinStream, newHttpAgent, openRun, postRun, readThread, runHttpAgent, runInput, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { countRows, readSessionEvents } from '../support/inspect';

const types = (events: BaseEvent[]) => events.map((event) => event.type);

for (const server of backends()) {
  describe(`AG-UI wire on ${server.kind}`, () => {
    it('serves HttpAgent a run whose every event validates, without a client warning', async () => {
      const agent = newHttpAgent(server.url, 'helpdesk');
      const { events, logged, result } = await runHttpAgent(agent, 'look up order po_42');
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
      expect(String(reply.content)).toBe('Order po_42 — Analytical Engine manual for Ada Lovelace, delivered, $19.99.');
      expect(result.newMessages.length).toBeGreaterThanOrEqual(3);
    });

    it('opens a second run on the thread with a MESSAGES_SNAPSHOT of the first exchange, and adds no duplicate', async () => {
      const threadId = randomUUID();
      const agent = newHttpAgent(server.url, 'helpdesk', threadId);
      await runHttpAgent(agent, 'hello');
      const firstIds = agent.messages.map((message) => message.id);
      const { events, logged } = await runHttpAgent(agent, 'look up order po_7');
      expect(logged).toEqual([]);
      const snapshot = events.find((event) => event.type === EventType.MESSAGES_SNAPSHOT) as MessagesSnapshotEvent;
      expect(snapshot).toBeDefined();
      expect(snapshot.messages.slice(0, firstIds.length).map((message) => message.id)).toEqual(firstIds);
      // HttpAgent echoed its whole history back: the log holds each message once.
      const ids = agent.messages.map((message) => message.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(agent.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['hello', 'look up order po_7']);
    });

    it("streams a model's reasoning as REASONING events before what it led to, and ends the run with its usage", async () => {
      const agent = newHttpAgent(server.url, 'helpdesk');
      const { events, logged } = await runHttpAgent(agent, 'think then look up order po_42');
      expect(logged).toEqual([]);
      const seen = types(events);
      for (const type of [
        EventType.REASONING_START,
        EventType.REASONING_MESSAGE_START,
        EventType.REASONING_MESSAGE_CONTENT,
        EventType.REASONING_MESSAGE_END,
        EventType.REASONING_ENCRYPTED_VALUE,
        EventType.REASONING_END,
      ]) {
        expect(seen).toContain(type);
      }
      expect(seen.indexOf(EventType.REASONING_END)).toBeLessThan(seen.indexOf(EventType.TOOL_CALL_START));
      expect(agent.messages.map((message) => message.role)).toEqual(['user', 'reasoning', 'assistant', 'tool', 'assistant']);
      const thought = 'Before I act, let me think: the request is "look up order po_42". I\'ll do exactly that.';
      expect(agent.messages[1]).toMatchObject({
        role: 'reasoning',
        content: thought,
        encryptedValue: expect.stringContaining('scripted-sig-'),
      });
      // The call's step thought and the answer's step read it back: both count, the second partly from the cache.
      const finished = events.at(-1) as BaseEvent & { usage?: Record<string, number | string>[] };
      expect(finished.usage).toHaveLength(1);
      const [usage] = finished.usage!;
      expect(usage).toMatchObject({ provider: 'scripted', model: 'openai/gpt-4o-mini' });
      expect(usage!.reasoningTokens).toBe(thought.split(' ').length);
      expect(usage!.cachedInputTokens).toBeGreaterThan(0);
      expect(usage!.totalTokens).toBe(Number(usage!.inputTokens) + Number(usage!.outputTokens));
    });

    it('replays a re-joined run with its reasoning event for event, and hydrates it as thinking, with the usage', async () => {
      const threadId = randomUUID();
      const live = await openRun(server.url, 'helpdesk', runInput(threadId, 'think about launch timing'));
      const runId = (live.events[0] as BaseEvent & { runId: string }).runId;
      const replay = await joinStream(server.url, 'helpdesk', { threadId, runId, offset: '-1' });
      expect(replay.entries).toEqual(live.entries);
      // A re-join from inside the reasoning gets the rest of the run, and nothing twice.
      const inside = live.entries.findIndex((entry) => entry.event.type === EventType.REASONING_MESSAGE_CONTENT);
      const rest = await joinStream(server.url, 'helpdesk', { threadId, runId, offset: live.entries[inside]!.id! });
      expect(rest.entries).toEqual(live.entries.slice(inside + 1));

      const { body } = await readThread(server.url, 'helpdesk', threadId);
      const answer = body.messages.at(-1);
      expect(answer.parts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: 'thinking',
            content: "The user wants my thoughts on launch timing. I'll weigh what matters most and answer in one line.",
          }),
          expect.objectContaining({ type: 'text', content: 'Here is what I think about launch timing: it is worth a closer look.' }),
        ]),
      );
      const finished = live.events.at(-1) as BaseEvent & { usage: unknown[] };
      expect(body.usage).toEqual({ lastRun: { runId, usage: finished.usage }, thread: finished.usage });
    });

    it('costs a constant number of event-log writes for 200 and 2,000 streamed tokens', async () => {
      const rowsFor = async (tokens: number) => {
        const threadId = randomUUID();
        const { events } = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage(`reply with ${tokens} tokens`)] });
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
      const agent = newHttpAgent(server.url, 'taskboard');
      const { events, logged } = await runHttpAgent(agent, 'plan a launch: write post, email list, tweet');
      expect(logged).toEqual([]);
      expect(types(events)).toContain(EventType.STATE_DELTA);
      expect(agent.state.todos.map((todo: { title: string }) => todo.title)).toEqual(['Write post', 'Email list', 'Tweet']);
    });

    it('keeps only editable state from the client, validated, and refuses a bad value naming its path', async () => {
      const threadId = randomUUID();
      const first = await postRun(server.url, 'taskboard', {
        threadId,
        runId: randomUUID(),
        messages: [userMessage('hello')],
        state: { draft: 'Launch notes', todos: [{ id: 'x', title: 'forged', status: 'done' }] },
      });
      expect(first.events.find((event) => event.type === EventType.STATE_SNAPSHOT)).toMatchObject({ snapshot: { draft: 'Launch notes', todos: [] } });
      const before = await countRows(server.databaseUrl, threadId);
      const bad = await postRun(server.url, 'taskboard', { threadId, runId: randomUUID(), messages: [userMessage('again')], state: { draft: 42 } });
      expect(types(bad.events)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
      expect(bad.events[1]).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('draft') });
      expect(await countRows(server.databaseUrl, threadId)).toEqual(before);
      const agent = newHttpAgent(server.url, 'taskboard', threadId);
      const { events } = await runHttpAgent(agent, 'and now?');
      expect(events.find((event) => event.type === EventType.STATE_SNAPSHOT)).toMatchObject({ snapshot: { draft: 'Launch notes' } });
    });

    it('runs a turn on the model the client chose, keeps it through an approval, hydrates it, refuses one the agent does not offer', async () => {
      const claude = 'anthropic/claude-sonnet-4-6';
      const threadId = randomUUID();
      const run = (body: object) => postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [], ...body });
      const textOf = (events: BaseEvent[]) =>
        events.flatMap((event) => (event.type === EventType.TEXT_MESSAGE_CONTENT ? [(event as BaseEvent & { delta: string }).delta] : [])).join('');

      // Chosen: the scripted model stands in for Claude and says which model it was asked as.
      const chosen = await run({ messages: [userMessage('which model')], forwardedProps: { model: claude } });
      expect(textOf(chosen.events)).toBe(`I am the offline scripted model, standing in for ${claude}.`);
      expect((await readThread(server.url, 'helpdesk', threadId)).body.model).toBe(claude);

      // Not named: the thread's choice holds. The approval's continuation asks for the other
      // model (a picker changed meanwhile), yet finishes on the one its turn started with.
      const paused = await run({ messages: [userMessage('refund order po_42 for 19.99')] });
      const outcome = (paused.events.at(-1) as RunFinishedEvent).outcome;
      expect(outcome?.type).toBe('interrupt');
      const interruptId = outcome?.type === 'interrupt' ? outcome.interrupts[0]!.id : '';
      const resumed = await run({
        resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
        forwardedProps: { model: 'openai/gpt-4o-mini' },
      });
      expect((resumed.events.at(-1) as RunFinishedEvent & { usage?: { model: string }[] }).usage?.map((entry) => entry.model)).toEqual([claude]);
      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(log.flatMap((event) => (event.type === 'run_started' ? [event.model] : []))).toEqual([claude, claude, claude]);
      expect(new Set(log.flatMap((event) => (event.type === 'assistant_step' ? [event.model?.id] : [])))).toEqual(new Set([claude]));
      expect((await readThread(server.url, 'helpdesk', threadId)).body.model).toBe(claude);

      // Back to the default by choice, then a model the agent does not offer: refused, nothing written.
      await run({ messages: [userMessage('which model')], forwardedProps: { model: 'openai/gpt-4o-mini' } });
      expect((await readThread(server.url, 'helpdesk', threadId)).body.model).toBe('openai/gpt-4o-mini');
      const before = await countRows(server.databaseUrl);
      const refused = await run({ messages: [userMessage('which model')], forwardedProps: { model: 'openai/gpt-9' } });
      expect(types(refused.events)).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
      expect(refused.events[1]).toMatchObject({ code: 'unknown_model', message: expect.stringContaining('"anthropic/claude-sonnet-4-6"') });
      expect(await countRows(server.databaseUrl)).toEqual(before);
    });

    it("lists each agent's models on GET /api/v1/models with the backend that serves each, in both shapes", async () => {
      const openai = await (await fetch(`${server.url}/api/v1/models`)).json();
      const anthropic = await (await fetch(`${server.url}/api/v1/models`, { headers: { 'anthropic-version': '2023-06-01' } })).json();
      for (const list of [openai.data, anthropic.data]) {
        const support = list.find((model: { id: string }) => model.id === 'helpdesk');
        // STACKBONE_MODEL=scripted: the scripted model serves both, and says so.
        expect(support.models).toEqual([
          { id: 'openai/gpt-4o-mini', label: 'GPT-4o mini', default: true, backend: 'scripted' },
          { id: 'anthropic/claude-sonnet-4-6', label: 'Claude Sonnet 4.6', default: false, backend: 'scripted' },
        ]);
        expect(list.find((model: { id: string }) => model.id === 'taskboard').models).toHaveLength(1);
      }
    });

    describe('bad requests get JSON errors and change nothing', () => {
      const cases: [string, string, string | object, number, RegExp][] = [
        ['malformed JSON', 'helpdesk', '{"threadId": ', 400, /not valid JSON/],
        ['a body of the wrong shape', 'helpdesk', { threadId: 'x', runId: 'y', messages: 'hello' }, 400, /messages/],
        // A missing threadId is a stateless run (tests/integration/seed-agui-examples.test.ts); one of the wrong type is refused.
        ['a threadId that is not a string', 'helpdesk', { threadId: 42, runId: 'y', messages: [] }, 400, /threadId/],
        ['a missing runId', 'helpdesk', { threadId: 'x', messages: [] }, 400, /runId/],
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
        const { status, events } = await postRun(server.url, 'helpdesk', {
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
