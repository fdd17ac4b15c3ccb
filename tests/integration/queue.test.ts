// The message queue over HTTP against real servers (docs/turn-control.md, "Queue"): a message
// sent while a turn runs or waits on a decision is queued, not refused; it goes out when the
// session falls idle, as a turn of its own whose stream the queued request gets; the queue can
// be edited, moved, removed and sent now; the session stream shows it; the chat wires keep
// their 409 while a decision is pending, and otherwise answer the message in its turn.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import OpenAI, { ConflictError } from 'openai';
import { describe, expect, it } from 'vitest';
import { joinStream, openRun, postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { countRows, eventually, readSessionEvents } from '../support/inspect';
import { rejection } from '../support/sdk';

interface QueueItem {
  id: string;
  content: string;
  sendNow: boolean;
}

async function queueOp(url: string, path: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { queue?: QueueItem[]; error?: { code: string } } };
}

async function untilStatus(url: string, threadId: string, status: string) {
  return eventually(async () => (await readThread(url, 'helpdesk', threadId)).body?.status === status, 15_000, `thread ${status}`);
}

const userTexts = (events: Awaited<ReturnType<typeof readSessionEvents>>) =>
  events.flatMap((event) => (event.type === 'message_added' && event.message.role === 'user' ? [event.message.content] : []));
const deltas = (events: BaseEvent[]) =>
  events
    .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
    .map((event) => (event as unknown as { delta: string }).delta)
    .join('');

for (const server of backends()) {
  describe(`the message queue on ${server.kind}`, () => {
    it('a message posted while a turn streams is queued; its response streams its own turn once the first ends', async () => {
      const threadId = randomUUID();
      const firstRunId = randomUUID();
      const first = openRun(server.url, 'helpdesk', { threadId, runId: firstRunId, messages: [userMessage('slowly reply with 20 tokens')] });
      await untilStatus(server.url, threadId, 'running');
      // The client sends its whole history, as AG-UI clients do; only the new message is queued.
      const queuedRunId = randomUUID();
      const second = postRun(server.url, 'helpdesk', { threadId, runId: queuedRunId, messages: [userMessage('say 3 words')] });
      const queued = await eventually(
        async () => {
          const queue = (await readThread(server.url, 'helpdesk', threadId)).body.queue as QueueItem[];
          return queue.length === 1 && queue;
        },
        10_000,
        'the message queued',
      );
      expect(queued[0]).toMatchObject({ content: 'say 3 words', sendNow: false });

      const { events: firstEvents } = await first;
      expect(firstEvents.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId: firstRunId });
      const { status, events } = await second;
      expect(status).toBe(200);
      expect(events[0]).toMatchObject({ type: 'RUN_STARTED', runId: queuedRunId });
      expect(deltas(events).trim()).toBe('token1 token2 token3');
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId: queuedRunId, outcome: { type: 'success' } });
      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(userTexts(log)).toEqual(['slowly reply with 20 tokens', 'say 3 words']);
      expect((await readThread(server.url, 'helpdesk', threadId)).body.queue).toEqual([]);
    });

    it('a new AG-UI message while an approval is pending is RUN_ERROR interrupts_pending at once, writing nothing; queued through /queue it goes out after the continuation', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('close ticket T-7')] });
      const finished = paused.events.at(-1) as BaseEvent & { outcome: { type: string; interrupts: { id: string }[] } };
      expect(finished.outcome.type).toBe('interrupt');
      const before = await countRows(server.databaseUrl, threadId);

      // A raw AG-UI client sending a new message: answered at once (no open-ended wait), nothing written.
      const started = Date.now();
      const refused = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('hello?')] });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(refused.events.map((event) => event.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
      expect(refused.events[1]).toMatchObject({ code: 'interrupts_pending', metadata: { interruptIds: [finished.outcome.interrupts[0]!.id] } });
      expect(await countRows(server.databaseUrl, threadId)).toEqual(before);
      expect((await readThread(server.url, 'helpdesk', threadId)).body.queue).toEqual([]);

      // The web app queues it explicitly instead.
      const queuedResponse = await fetch(`${server.url}/api/agents/helpdesk/queue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId, op: 'add', text: 'say 2 words', id: 'queued-1' }),
      });
      expect(queuedResponse.status).toBe(200);

      // The chat wire keeps its 409 while the decision is pending, and writes nothing.
      const openai = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'dev', defaultHeaders: { 'x-stackbone-session': threadId }, maxRetries: 0 });
      const conflict = await rejection(openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'hello?' }] }), ConflictError);
      expect(conflict.code).toBe('approval_pending');

      const resumed = await postRun(server.url, 'helpdesk', {
        threadId,
        runId: randomUUID(),
        messages: [],
        resume: [{ interruptId: finished.outcome.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }],
      });
      expect(resumed.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      await eventually(
        async () =>
          userTexts(await readSessionEvents(server.databaseUrl, threadId)).length === 2 &&
          (await readThread(server.url, 'helpdesk', threadId)).body.status === 'idle',
        15_000,
        'the queued message answered',
      );

      const log = await readSessionEvents(server.databaseUrl, threadId);
      const order = log.flatMap((event) =>
        event.type === 'message_added' || event.type === 'tool_result' || event.type === 'assistant_step'
          ? [`${event.message.role}`]
          : event.type === 'interrupt_decided'
            ? ['decided']
            : [],
      );
      expect(order).toEqual(['user', 'assistant', 'decided', 'tool', 'assistant', 'user', 'assistant']);
      expect(userTexts(log)).toEqual(['close ticket T-7', 'say 2 words']);
    });

    it('edit, move, remove and send-now over HTTP; the session stream shows the queue; send-now ends the turn at a step boundary', async () => {
      const threadId = randomUUID();
      const path = '/api/agents/helpdesk/queue';
      const first = openRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('slowly reply with 40 tokens')] });
      await untilStatus(server.url, threadId, 'running');
      const watching = joinStream(
        server.url,
        'helpdesk',
        { threadId, offset: '-1' },
        {
          stop: ({ event }) =>
            event.type === 'CUSTOM' &&
            (event as unknown as { name: string; value: { queue: QueueItem[] } }).value.queue.some((item) => item.content === 'say 4 words, edited'),
        },
      );
      expect(await queueOp(server.url, path, { threadId, op: 'add', id: 'q-a', text: 'say 2 words' })).toMatchObject({
        status: 200,
        body: { queue: [{ id: 'q-a' }] },
      });
      expect((await queueOp(server.url, path, { threadId, op: 'add', id: 'q-b', text: 'say 4 words' })).body.queue?.map((item) => item.id)).toEqual([
        'q-a',
        'q-b',
      ]);
      expect((await queueOp(server.url, path, { threadId, op: 'add', id: 'q-c', text: 'say 9 words' })).body.queue).toHaveLength(3);
      expect((await queueOp(server.url, path, { threadId, op: 'move', id: 'q-b', index: 0 })).body.queue?.map((item) => item.id)).toEqual([
        'q-b',
        'q-a',
        'q-c',
      ]);
      expect((await queueOp(server.url, path, { threadId, op: 'remove', id: 'q-c' })).body.queue?.map((item) => item.id)).toEqual(['q-b', 'q-a']);
      expect((await queueOp(server.url, path, { threadId, op: 'edit', id: 'q-b', text: 'say 4 words, edited' })).body.queue?.[0]).toMatchObject({
        id: 'q-b',
        content: 'say 4 words, edited',
      });
      // Another tab sees the queue live on the session stream.
      const seen = (await watching).events.filter((event) => event.type === 'CUSTOM' && (event as unknown as { name: string }).name === 'stackbone.queue');
      expect(seen.length).toBeGreaterThan(0);

      // Refusals say why and change nothing.
      expect(await queueOp(server.url, path, { threadId, op: 'remove', id: 'q-c' })).toMatchObject({ status: 404, body: { error: { code: 'not_queued' } } });
      expect(await queueOp(server.url, path, { threadId, op: 'edit', id: 'q-a', text: '  ' })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
      expect(await queueOp(server.url, path, { threadId, op: 'shuffle', id: 'q-a' })).toMatchObject({ status: 400 });
      expect(await queueOp(server.url, path, { threadId: randomUUID(), op: 'add', text: 'x' })).toMatchObject({ status: 404 });

      // The first turn is one long model step: send-now ends it at the next boundary, which is its end.
      expect(
        (await queueOp(server.url, `/api/v1/sessions/${threadId}/queue`, { op: 'sendNow', id: 'q-a' })).body.queue?.map((item) => [item.id, item.sendNow]),
      ).toEqual([
        ['q-a', true],
        ['q-b', false],
      ]);
      await first;
      await eventually(
        async () =>
          userTexts(await readSessionEvents(server.databaseUrl, threadId)).length === 3 &&
          (await readThread(server.url, 'helpdesk', threadId)).body.status === 'idle',
        20_000,
        'the queue sent',
      );
      const log = await readSessionEvents(server.databaseUrl, threadId);
      expect(userTexts(log)).toEqual(['slowly reply with 40 tokens', 'say 2 words', 'say 4 words, edited']);
      expect(log.filter((event) => event.type === 'run_started')).toHaveLength(3);
    });

    it('the OpenAI wire: a message sent while a turn runs waits for it and is answered in its own turn', async () => {
      const key = randomUUID();
      const openai = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'dev', defaultHeaders: { 'x-stackbone-session': key }, maxRetries: 0 });
      const first = openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'slowly reply with 15 tokens' }] });
      await untilStatus(server.url, key, 'running');
      const second = await openai.chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'say 2 words' }] });
      expect((await first).choices[0]!.message.content).toContain('token15');
      expect(second.choices[0]!.message.content).toBe('token1 token2');
      expect(userTexts(await readSessionEvents(server.databaseUrl, key))).toEqual(['slowly reply with 15 tokens', 'say 2 words']);
    });
  });
}
