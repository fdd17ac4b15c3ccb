// Forks against real servers (docs/time-travel.md): a thread forked at a user message, after a tool
// effect, and while a call waits on a person; edit-and-resend over AG-UI, regenerate from the fork
// endpoint, and a chat wire's fork. Every effect is counted in the ledger file the tools write:
// a fork never runs an inherited effect again, and its fresh interrupt is decided on its own.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../fixtures/agents/ledger';
import { postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { eventually, readSessionEvents } from '../support/inspect';

interface Hydrated {
  status: string;
  messages: { id: string; role: string; parts: { type: string; content?: string; id?: string; name?: string; toolCallId?: string }[] }[];
  interrupts: { pending: { id: string }[] } | null;
  parent: { threadId: string; atMessageId: string; mode: string } | null;
  inheritedToolCallIds: string[];
}

const json = { 'content-type': 'application/json' };

async function post(url: string, body: unknown) {
  const response = await fetch(url, { method: 'POST', headers: json, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string } } };
}

async function hydrate(url: string, agent: string, threadId: string): Promise<Hydrated> {
  const { status, body } = await readThread(url, agent, threadId);
  expect(status).toBe(200);
  return body as Hydrated;
}

function textOf(thread: Hydrated): string[] {
  return thread.messages.map((message) => `${message.role}: ${message.parts.map((part) => part.content ?? (part.name ? `[${part.name}]` : '')).join('')}`);
}

async function turn(url: string, agent: string, threadId: string, text: string) {
  const { status, events } = await postRun(url, agent, { threadId, runId: randomUUID(), messages: [userMessage(text)] });
  expect(status).toBe(200);
  return events.at(-1) as BaseEvent & { outcome?: { type: string } };
}

for (const server of backends()) {
  describe(`forks on ${server.kind}`, () => {
    const effects = (key: string) => readLedger(server.ledgerFile).filter((line) => line.kind === 'effect' && line.key === key);

    it('a fork at a user message, after a tool effect, and at a pending call: inherited effects never run again; the fork decides its own call', async () => {
      const threadId = randomUUID();
      const noted = `fork-noted-${randomUUID()}`;
      const recorded = `fork-recorded-${randomUUID()}`;
      await turn(server.url, 'ledger', threadId, `call noteEffect {"key":"${noted}"}`);
      expect((await turn(server.url, 'ledger', threadId, `call recordEffect {"key":"${recorded}"}`)).outcome?.type).toBe('interrupt');
      const original = await hydrate(server.url, 'ledger', threadId);
      const originalInterrupt = original.interrupts!.pending[0]!.id;
      const [firstUser, noteStep, , secondUser, recordStep] = original.messages;
      expect([firstUser?.role, noteStep?.role, secondUser?.role, recordStep?.role]).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(effects(noted)).toHaveLength(1);

      // At the user message: the thread up to it, at rest; nothing ran.
      const atUser = await post(`${server.url}/api/agents/ledger/fork`, { threadId, atMessageId: firstUser!.id });
      expect(atUser).toMatchObject({ status: 201, body: { parent: { threadId, atMessageId: firstUser!.id }, runId: null } });
      const userFork = await hydrate(server.url, 'ledger', atUser.body.threadId as string);
      expect(userFork).toMatchObject({ status: 'idle', parent: { threadId, atMessageId: firstUser!.id, mode: 'fork' }, inheritedToolCallIds: [] });
      expect(userFork.messages.map((message) => message.id)).toEqual([firstUser!.id]);

      // After the tool effect: the call and its result are inherited, and a new turn on the fork does not run them again.
      const afterEffect = await post(`${server.url}/api/agents/ledger/fork`, { threadId, atMessageId: noteStep!.id });
      const effectFork = await hydrate(server.url, 'ledger', afterEffect.body.threadId as string);
      expect(effectFork.status).toBe('idle');
      expect(effectFork.inheritedToolCallIds).toHaveLength(1);
      expect(textOf(effectFork).join('\n')).toContain('[noteEffect]');
      expect(effectFork.messages.some((message) => message.id === secondUser!.id)).toBe(false);
      expect((await turn(server.url, 'ledger', afterEffect.body.threadId as string, 'hello')).type).toBe('RUN_FINISHED');
      expect(effects(noted)).toHaveLength(1);

      // At the pending call: the fork waits on a fresh interrupt of its own.
      const atCall = await post(`${server.url}/api/agents/ledger/fork`, { threadId, atMessageId: recordStep!.id });
      const callForkId = atCall.body.threadId as string;
      const callFork = await hydrate(server.url, 'ledger', callForkId);
      expect(callFork.status).toBe('interrupted');
      const forkInterrupt = callFork.interrupts!.pending[0]!.id;
      expect(forkInterrupt).not.toBe(originalInterrupt);
      expect(callFork.inheritedToolCallIds).toHaveLength(1);

      // The original's call is rejected, the fork's approved: only the fork's runs, once.
      expect((await post(`${server.url}/api/hitl/${originalInterrupt}/reject`, { reason: 'not in this thread' })).status).toBe(200);
      expect((await post(`${server.url}/api/hitl/${forkInterrupt}/approve`, {})).status).toBe(200);
      await eventually(async () => (await hydrate(server.url, 'ledger', callForkId)).status === 'idle', 15_000, 'the fork to carry on after its approval');
      await eventually(async () => (await hydrate(server.url, 'ledger', threadId)).status === 'idle', 15_000, 'the original to carry on after its rejection');
      expect(effects(recorded)).toHaveLength(1);
      expect(effects(noted)).toHaveLength(1);
      const originalResults = (await readSessionEvents(server.databaseUrl, threadId)).filter((event) => event.type === 'tool_result');
      expect(originalResults.at(-1)).toMatchObject({ status: 'denied' });
      // The original's log did not change by being forked: nothing but its own decision and continuation followed.
      expect((await readSessionEvents(server.databaseUrl, threadId)).some((event) => event.type === 'thread_forked')).toBe(false);
    });

    it('a fork offers to undo an effect the original made after the fork point; the undo waits for its approval and runs once', async () => {
      const threadId = randomUUID();
      const kept = `fork-kept-${randomUUID()}`;
      const dropped = `fork-dropped-${randomUUID()}`;
      await turn(server.url, 'ledger', threadId, `call noteEffect {"key":"${kept}"}`);
      await turn(server.url, 'ledger', threadId, `call noteEffect {"key":"${dropped}"}`);
      const [, keptStep] = (await hydrate(server.url, 'ledger', threadId)).messages;
      const forked = await post(`${server.url}/api/agents/ledger/fork`, { threadId, atMessageId: keptStep!.id });
      const forkId = forked.body.threadId as string;
      const offers = ((await readThread(server.url, 'ledger', forkId)).body as { undoOffers: { toolCallId: string; input: unknown; undo: unknown }[] })
        .undoOffers;
      expect(offers).toEqual([
        {
          toolCallId: expect.any(String),
          toolName: 'noteEffect',
          input: { key: dropped, sleepMs: 0 },
          output: { noted: dropped },
          undo: { tool: 'unnoteEffect', input: { key: dropped } },
        },
      ]);

      const undo = await post(`${server.url}/api/agents/ledger/undo`, { threadId: forkId, toolCallId: offers[0]!.toolCallId });
      expect(undo).toMatchObject({ status: 202, body: { threadId: forkId, runId: expect.any(String) } });
      // The undo is a call like any other: it waits for its approval, and is offered no more.
      const paused = await eventually(async () => {
        const thread = await hydrate(server.url, 'ledger', forkId);
        return thread.status === 'interrupted' && thread;
      });
      expect((paused as unknown as { undoOffers: unknown[] }).undoOffers).toEqual([]);
      expect(effects(`undo:${dropped}`)).toHaveLength(0);
      expect((await post(`${server.url}/api/hitl/${paused.interrupts!.pending[0]!.id}/approve`, {})).status).toBe(200);
      await eventually(async () => (await hydrate(server.url, 'ledger', forkId)).status === 'idle', 15_000, 'the undo to run');
      expect(effects(`undo:${dropped}`)).toHaveLength(1);
      expect(effects(dropped)).toHaveLength(1);
      expect(effects(kept)).toHaveLength(1);
      expect(await post(`${server.url}/api/agents/ledger/undo`, { threadId: forkId, toolCallId: offers[0]!.toolCallId })).toMatchObject({
        status: 409,
        body: { error: { code: 'already_undone' } },
      });
    });

    it('edit-and-resend over AG-UI and regenerate from the fork endpoint make new threads; the original stays as it was', async () => {
      const threadId = randomUUID();
      await turn(server.url, 'helpdesk', threadId, 'hello there');
      const original = await hydrate(server.url, 'helpdesk', threadId);
      const [question, answer] = original.messages;
      expect([question?.role, answer?.role]).toEqual(['user', 'assistant']);

      // Edit-and-resend: an AG-UI run on a new threadId, forwardedProps.fork naming the original and the message replaced.
      const edited = randomUUID();
      const resent = userMessage('hello, how are you?');
      const { status, events } = await postRun(server.url, 'helpdesk', {
        threadId: edited,
        runId: randomUUID(),
        messages: [resent],
        tools: [],
        context: [],
        state: {},
        forwardedProps: { fork: { threadId, atMessageId: question!.id } },
      });
      expect(status).toBe(200);
      expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: edited });
      const editFork = await hydrate(server.url, 'helpdesk', edited);
      expect(editFork).toMatchObject({ status: 'idle', parent: { threadId, atMessageId: question!.id, mode: 'edit' } });
      expect(editFork.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(editFork.messages[0]!.id).toBe(resent.id);
      expect(textOf(editFork)[0]).toBe('user: hello, how are you?');

      // Regenerate: the reply asked again, on a new thread, from the same question.
      const regenerated = await post(`${server.url}/api/agents/helpdesk/fork`, { threadId, atMessageId: answer!.id, regenerate: true });
      expect(regenerated).toMatchObject({ status: 201, body: { runId: expect.any(String) } });
      const again = await eventually(async () => {
        const thread = await hydrate(server.url, 'helpdesk', regenerated.body.threadId as string);
        return thread.status === 'idle' && thread.messages.length === 2 && thread;
      });
      expect(again.messages[0]!.id).toBe(question!.id);
      expect(again.messages[1]!.id).not.toBe(answer!.id);
      expect(again.parent).toMatchObject({ threadId, mode: 'regenerate' });

      // The original is unchanged.
      expect((await hydrate(server.url, 'helpdesk', threadId)).messages.map((message) => message.id)).toEqual([question!.id, answer!.id]);

      // A chat wire forks by session key and reads the fork's parent back.
      const viaKey = await post(`${server.url}/api/v1/sessions/${threadId}/fork`, { atMessageId: question!.id, message: 'hello again' });
      expect(viaKey.status).toBe(201);
      const session = await eventually(async () => {
        const read = (await (await fetch(`${server.url}/api/v1/sessions/${viaKey.body.threadId as string}`)).json()) as {
          status: string;
          parent: unknown;
          messages: unknown[];
        };
        return read.status === 'idle' && read.messages.length === 2 && read;
      });
      expect(session.parent).toEqual({ id: threadId, atMessageId: question!.id, mode: 'edit' });

      // Bad fork points are refused, and write nothing.
      expect(await post(`${server.url}/api/agents/helpdesk/fork`, { threadId, atMessageId: answer!.id, message: 'x' })).toMatchObject({
        status: 400,
        body: { error: { code: 'fork_point_invalid' } },
      });
      expect(await post(`${server.url}/api/agents/helpdesk/fork`, { threadId, atMessageId: 'no-such-message' })).toMatchObject({
        status: 404,
        body: { error: { code: 'not_found' } },
      });
      expect(await post(`${server.url}/api/agents/helpdesk/fork`, { threadId, atMessageId: question!.id, newThreadId: edited })).toMatchObject({
        status: 409,
        body: { error: { code: 'thread_exists' } },
      });
      expect(await post(`${server.url}/api/agents/helpdesk/fork`, { threadId: randomUUID(), atMessageId: question!.id })).toMatchObject({ status: 404 });
    });
  });
}
