// Hostile input against real servers: keys named after Object.prototype's members in state,
// resume entries, decisions and client tools are refused with a 4xx code or dropped — never a
// 500 — and a refused request writes nothing.
import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { countRows } from '../support/inspect';

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
const last = (events: BaseEvent[]) => events.at(-1) as BaseEvent & { code?: string; outcome?: { type: string } };

for (const server of backends()) {
  describe(`hostile input on ${server.kind}`, () => {
    it('state keys named after prototype members are dropped; the run goes on and keeps none of them', async () => {
      const threadId = randomUUID();
      // JSON.parse makes "__proto__" an own key, as a hostile client would send it.
      const body = `{"threadId":"${threadId}","runId":"${randomUUID()}","messages":[${JSON.stringify(userMessage('say 2 words'))}],"state":{"__proto__":{"draft":"polluted"},"constructor":1,"toString":"x","draft":"mine"}}`;
      const { status, events } = await postRun(server.url, 'taskboard', body);
      expect(status).toBe(200);
      expect(last(events)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect((await readThread(server.url, 'taskboard', threadId)).body.state).toEqual({ todos: [], draft: 'mine' });
    });

    it('resume entries for prototype-named interrupts are unknown interrupts, and write nothing', async () => {
      const threadId = randomUUID();
      const paused = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('close ticket T-7')] });
      expect(last(paused.events).outcome?.type).toBe('interrupt');
      const before = await countRows(server.databaseUrl, threadId);
      for (const interruptId of PROTOTYPE_KEYS) {
        const { status, events } = await postRun(server.url, 'helpdesk', {
          threadId,
          runId: randomUUID(),
          messages: [],
          resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
        });
        expect(status, interruptId).toBe(200);
        expect(last(events), interruptId).toMatchObject({ type: 'RUN_ERROR', code: 'not_found', metadata: { what: 'interrupt' } });
        const decided = await fetch(`${server.url}/api/hitl/${interruptId}/approve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(decided.status, interruptId).toBe(404);
      }
      // A retry id named like a prototype member is a new retry of nothing.
      const retry = await postRun(server.url, 'helpdesk', {
        threadId,
        runId: randomUUID(),
        messages: [],
        forwardedProps: { retry: { retryId: 'constructor' } },
      });
      expect(last(retry.events).type).toBe('RUN_ERROR');
      expect(await countRows(server.databaseUrl, threadId)).toEqual(before);
    });

    it('client tools named after prototype members, or not named like tools, are refused as invalid_tool', async () => {
      for (const name of [...PROTOTYPE_KEYS, 'has space', '', 'x'.repeat(65)]) {
        const threadId = randomUUID();
        const { events } = await postRun(server.url, 'helpdesk', {
          threadId,
          runId: randomUUID(),
          messages: [userMessage('hello')],
          tools: [{ name, description: 'x', parameters: { type: 'object', properties: {} } }],
        });
        expect(last(events), name).toMatchObject({ type: 'RUN_ERROR', code: 'invalid_tool' });
        expect((await countRows(server.databaseUrl, threadId)).events, name).toBe(0);
      }
      const chat = await fetch(`${server.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-stackbone-session': randomUUID() },
        body: JSON.stringify({
          model: 'helpdesk',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [{ type: 'function', function: { name: 'constructor', parameters: { type: 'object' } } }],
        }),
      });
      expect(chat.status).toBe(400);
      expect(((await chat.json()) as { error: { code: string } }).error.code).toBe('invalid_tool');
    });

    it('thread ids follow the session-key rule; a NUL in a first message never reaches the title', async () => {
      const before = await countRows(server.databaseUrl);
      for (const threadId of ['', 'x'.repeat(3000), 'has\u0000nul', 'has space']) {
        const { status, text } = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('hi')] });
        expect(status, JSON.stringify(threadId)).toBe(400);
        expect(JSON.parse(text), JSON.stringify(threadId)).toMatchObject({ error: { code: 'invalid_thread_id' } });
        if (!threadId) continue;
        // A stop names its thread by the same rule.
        const stop = await fetch(`${server.url}/api/agents/helpdesk/stop`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ threadId }),
        });
        expect(stop.status, JSON.stringify(threadId)).toBe(400);
        expect(((await stop.json()) as { error: { code: string } }).error.code).toBe('invalid_thread_id');
      }
      expect(await countRows(server.databaseUrl)).toEqual(before);

      const threadId = randomUUID();
      const { events } = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('hello\u0000 there\u0007')] });
      expect(last(events)).toMatchObject({ type: 'RUN_FINISHED' });
      const sessions = (await (await fetch(`${server.url}/api/sessions?agent=helpdesk&limit=100`)).json()) as { sessions: { id: string; title: string }[] };
      expect(sessions.sessions.find((session) => session.id === threadId)?.title).toBe('hello there');
    });

    it('a body that is not JSON by its Content-Type, or a browser POST from another site, is refused before any work', async () => {
      const before = await countRows(server.databaseUrl);
      const body = JSON.stringify({ threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')] });
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const response = await fetch(`${server.url}/api/agents/helpdesk`, { method: 'POST', headers: { 'content-type': type }, body });
        expect(response.status, type).toBe(415);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
      }
      const plain = await fetch(`${server.url}/api/agents/helpdesk/stop`, { method: 'POST', body: JSON.stringify({ threadId: randomUUID() }) });
      expect(plain.status).toBe(415);
      const foreign = await fetch(`${server.url}/api/agents/helpdesk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body,
      });
      expect(foreign.status).toBe(403);
      expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('cross_origin');
      expect(await countRows(server.databaseUrl)).toEqual(before);
      // The same origin is fine, and so is JSON with a charset.
      const own = await fetch(`${server.url}/api/agents/helpdesk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', origin: server.url, accept: 'text/event-stream' },
        body,
      });
      expect(own.status).toBe(200);
      await own.text();
    });

    it('pages and APIs may not be framed by another site', async () => {
      for (const path of ['/', '/studio', '/api/health']) {
        const response = await fetch(`${server.url}${path}`);
        expect(response.headers.get('x-frame-options'), path).toBe('DENY');
        expect(response.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      }
    });

    it('a body nested too deep, an array too long, too many messages or tools: a 4xx with a code, nothing written', async () => {
      const before = await countRows(server.databaseUrl);
      const deep = `{"threadId":"${randomUUID()}","runId":"${randomUUID()}","messages":[],"state":{"draft":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
      const nested = await fetch(`${server.url}/api/agents/taskboard`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: deep });
      expect(nested.status).toBe(400);
      expect(((await nested.json()) as { error: { code: string } }).error.code).toBe('json_too_deep');
      const hitl = await fetch(`${server.url}/api/hitl/int_x/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"payload":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
      });
      expect(hitl.status).toBe(400);
      const long = await fetch(`${server.url}/api/agents/helpdesk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId: randomUUID(), runId: randomUUID(), messages: [], state: { list: Array.from({ length: 10_001 }, () => 0) } }),
      });
      expect(((await long.json()) as { error: { code: string } }).error.code).toBe('json_array_too_long');

      const many = await postRun(server.url, 'helpdesk', {
        threadId: randomUUID(),
        runId: randomUUID(),
        messages: Array.from({ length: 2_001 }, (_, i) => ({ id: `m${i}`, role: 'user', content: 'x' })),
      });
      expect(last(many.events)).toMatchObject({ type: 'RUN_ERROR', code: 'too_many_messages' });
      const tools = Array.from({ length: 129 }, (_, i) => ({ name: `tool_${i}`, description: 'x', parameters: { type: 'object', properties: {} } }));
      const offered = await postRun(server.url, 'helpdesk', { threadId: randomUUID(), runId: randomUUID(), messages: [userMessage('hi')], tools });
      expect(last(offered.events)).toMatchObject({ type: 'RUN_ERROR', code: 'too_many_tools' });
      expect(await countRows(server.databaseUrl)).toEqual(before);
    });
  });
}
