// Studio's reads and the chat's between-turn writes, against real servers (docs/studio.md):
// the audit trail of a session (who decided, from where, original and edited arguments), the
// live feed of the owner's session changes, a question declined from the chat, and the
// planner's draft written without a message.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { describe, expect, it } from 'vitest';
import { openRun, postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { countRows, eventually, readSessionEvents } from '../support/inspect';

type Paused = BaseEvent & { outcome: { type: string; interrupts: { id: string }[] } };

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string } } };
}

interface Trail {
  session: { id: string; agent: string };
  entries: { kind: string; summary: string; actor?: { source: string; surface: string; who: string }; details?: Record<string, unknown> }[];
}

for (const server of backends()) {
  describe(`Studio and the chat's decisions on ${server.kind}`, () => {
    it('the audit trail shows each decision with who, from where, and the arguments as proposed and as approved', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('refund order po_42 for 19.99')] });
      const [interrupt] = (paused.events.at(-1) as Paused).outcome.interrupts;
      const decided = await post(
        server.url,
        `/api/hitl/${interrupt!.id}/approve`,
        { editedArgs: { orderId: 'po_42', amount: 5 }, payload: { note: 'partial' } },
        { 'x-stackbone-client': 'studio' },
      );
      expect(decided.status).toBe(200);
      await eventually(async () => (await readThread(server.url, 'helpdesk', threadId)).body.status === 'idle', 10_000, 'the continuation');

      const response = await fetch(`${server.url}/api/studio/sessions/${threadId}`);
      expect(response.status).toBe(200);
      const trail = (await response.json()) as Trail;
      expect(trail.session).toMatchObject({ id: threadId, agent: 'helpdesk' });
      const decision = trail.entries.find((entry) => entry.kind === 'decision')!;
      expect(decision).toMatchObject({
        summary: 'Approved with edits “Refund an order”',
        actor: { source: 'studio', surface: 'Studio', who: 'you (this computer)' },
        details: { arguments: { orderId: 'po_42', amount: 19.99 }, editedArguments: { orderId: 'po_42', amount: 5 }, payload: { note: 'partial' } },
      });
      expect(trail.entries.map((entry) => entry.kind)).toEqual([
        'run',
        'message',
        'tool-call',
        'pause',
        'run',
        'run',
        'decision',
        'tool-result',
        'message',
        'run',
      ]);

      const download = await fetch(`${server.url}/api/studio/sessions/${threadId}?download=1`);
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="stackbone-audit-${threadId}.json"`);
      expect(await download.json()).toEqual(trail);
      expect((await fetch(`${server.url}/api/studio/sessions/${randomUUID()}`)).status).toBe(404);
    });

    it("the live feed names each of the owner's sessions as it changes", async () => {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/api/studio/stream`, { signal: controller.signal });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      const threadId = randomUUID();
      await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('say 2 words')] });
      try {
        for (;;) {
          const { value } = await reader.read();
          if (value && value.event === 'changed' && (JSON.parse(value.data) as { sessionId: string }).sessionId === threadId) break;
        }
      } finally {
        controller.abort();
      }
    });

    it('a question declined from the chat: the tool is told, with the reason, and the turn goes on', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'taskboard', { threadId, runId: randomUUID(), messages: [userMessage('ask me for a launch name')] });
      const [interrupt] = (paused.events.at(-1) as Paused).outcome.interrupts;
      // Only for its own thread; an answer must carry what the question asks (nothing is written).
      expect(await post(server.url, '/api/agents/taskboard/decide', { threadId: randomUUID(), interruptId: interrupt!.id, action: 'reject' })).toMatchObject({
        status: 404,
      });
      expect(await post(server.url, '/api/agents/taskboard/decide', { threadId, interruptId: interrupt!.id, action: 'approve' })).toMatchObject({
        status: 400,
        body: { error: { code: 'payload_invalid' } },
      });
      expect(await post(server.url, '/api/agents/taskboard/decide', { threadId, interruptId: interrupt!.id, action: 'maybe' })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });

      const declined = await post(server.url, '/api/agents/taskboard/decide', {
        threadId,
        interruptId: interrupt!.id,
        action: 'reject',
        reason: 'Marketing picks it',
      });
      expect(declined).toMatchObject({ status: 200, body: { decision: { status: 'denied', reason: 'Marketing picks it', by: { source: 'agui' } } } });
      expect(await post(server.url, '/api/agents/taskboard/decide', { threadId, interruptId: interrupt!.id, action: 'reject' })).toMatchObject({
        status: 409,
        body: { error: { code: 'interrupt_already_decided' } },
      });
      await eventually(async () => (await readThread(server.url, 'taskboard', threadId)).body.status === 'idle', 10_000, 'the continuation');
      const result = (await readSessionEvents(server.databaseUrl, threadId)).find((event) => event.type === 'tool_result');
      expect(result).toMatchObject({ status: 'denied', message: { content: expect.stringContaining('declined to answer') } });
      expect(JSON.stringify(result)).toContain('Marketing picks it');
    });

    it("the planner's draft is written without a message, validated, and refused while a turn runs", async () => {
      const threadId = randomUUID();
      // A new thread: the write creates it.
      expect(await post(server.url, '/api/agents/taskboard/state', { threadId, state: { draft: 'Ship on Tuesday', todos: ['not editable'] } })).toMatchObject({
        status: 200,
        body: { state: { draft: 'Ship on Tuesday', todos: [] } },
      });
      expect((await readThread(server.url, 'taskboard', threadId)).body.state).toEqual({ todos: [], draft: 'Ship on Tuesday' });
      const events = await readSessionEvents(server.databaseUrl, threadId);
      expect(events.map((event) => event.type)).toEqual(['state_patched']);

      const before = await countRows(server.databaseUrl, threadId);
      expect(await post(server.url, '/api/agents/taskboard/state', { threadId, state: { draft: 42 } })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_state' } },
      });
      expect(await post(server.url, '/api/agents/taskboard/state', { threadId, state: 'nope' })).toMatchObject({ status: 400 });
      expect(await countRows(server.databaseUrl, threadId)).toEqual(before);

      const streaming = openRun(server.url, 'taskboard', { threadId, runId: randomUUID(), messages: [userMessage('slowly reply with 20 tokens')] });
      await eventually(async () => (await readThread(server.url, 'taskboard', threadId)).body.status === 'running', 10_000, 'the turn running');
      expect(await post(server.url, '/api/agents/taskboard/state', { threadId, state: { draft: 'changed mid-turn' } })).toMatchObject({
        status: 409,
        body: { error: { code: 'session_busy' } },
      });
      await streaming;
      expect(await post(server.url, '/api/agents/taskboard/state', { threadId, state: { draft: 'after the turn' } })).toMatchObject({ status: 200 });
      expect((await readThread(server.url, 'taskboard', threadId)).body.state.draft).toBe('after the turn');
    });
  });
}
