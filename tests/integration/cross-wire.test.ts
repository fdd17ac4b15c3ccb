// One session, three wires (docs/internals/wires.md, "Sessions"): a thread started over AG-UI continues over the
// OpenAI and Anthropic wires with the same key, and every wire shows one history.
import { randomUUID } from 'node:crypto';
import Anthropic, { ConflictError as AnthropicConflict } from '@anthropic-ai/sdk';
import { EventType, type MessagesSnapshotEvent } from '@ag-ui/core';
import OpenAI, { ConflictError } from 'openai';
import { describe, expect, it } from 'vitest';
import { newHttpAgent, readThread, runHttpAgent } from '../support/agui';
import { backends } from '../support/backends';
import { countRows } from '../support/inspect';

interface Session {
  status: string;
  messages: { id: string; role: string; content: string | null; tool_calls?: { id: string; function: { name: string } }[]; tool_call_id?: string }[];
  pendingInterrupts: { id: string }[];
}

async function session(url: string, key: string, format = 'openai') {
  const response = await fetch(`${url}/api/v1/sessions/${key}?format=${format}`);
  expect(response.status).toBe(200);
  return response.json();
}

async function settled(url: string, key: string): Promise<Session> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const current = (await session(url, key)) as Session;
    if (current.status === 'idle' && current.messages.at(-1)?.role === 'assistant') return current;
    if (Date.now() > deadline) throw new Error(`session ${key} did not settle: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function approveOutOfBand(url: string, sessionId: string) {
  const list = (await (await fetch(`${url}/api/hitl`)).json()) as { interrupts: { id: string; sessionId: string }[] };
  const [pending] = list.interrupts.filter((interrupt) => interrupt.sessionId === sessionId);
  const response = await fetch(`${url}/api/hitl/${pending!.id}/approve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(response.status).toBe(200);
}

for (const server of backends()) {
  const openai = (key: string) => new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'dev', defaultHeaders: { 'x-stackbone-session': key } });
  const anthropic = (key: string) => new Anthropic({ baseURL: `${server.url}/api`, apiKey: 'dev', defaultHeaders: { 'x-stackbone-session': key } });

  describe(`one session across AG-UI, OpenAI and Anthropic on ${server.kind}`, () => {
    it('an AG-UI thread continued over the OpenAI and Anthropic wires keeps one consistent history', async () => {
      const threadId = randomUUID();
      const agent = newHttpAgent(server.url, 'helpdesk', threadId);

      // AG-UI starts the thread.
      const first = await runHttpAgent(agent, 'look up order po_42');
      expect(first.logged).toEqual([]);
      const aguiIds = agent.messages.map((message) => message.id);
      expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

      // The OpenAI wire continues it: same owner, the thread id as the session key.
      const completion = await openai(threadId).chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'hello from openai' }] });
      expect(completion.choices[0]!.message.content).toContain('You said: "hello from openai"');
      const afterOpenAi = (await session(server.url, threadId)) as Session;
      expect(afterOpenAi.messages.slice(0, 4).map((message) => message.id)).toEqual(aguiIds);
      expect(afterOpenAi.messages.slice(4).map((message) => [message.role, message.content])).toEqual([
        ['user', 'hello from openai'],
        ['assistant', completion.choices[0]!.message.content],
      ]);

      // The Anthropic wire asks for a gated tool on the same session; it pauses.
      const paused = await anthropic(threadId).messages.create({
        model: 'helpdesk',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'close ticket T-7' }],
      });
      expect(paused.stop_reason).toBe('tool_use');
      const toolUse = paused.content.find((block) => block.type === 'tool_use')!;

      // The pause is the session's, so every wire sees it: the chat wires answer 409, AG-UI RUN_ERROR
      // interrupts_pending (the Stackbone contract), all before any work.
      const before = await countRows(server.databaseUrl, threadId);
      const conflict = await openai(threadId)
        .chat.completions.create({ model: 'helpdesk', messages: [{ role: 'user', content: 'and now?' }] })
        .catch((error: unknown) => error);
      expect(conflict).toBeInstanceOf(ConflictError);
      expect((conflict as ConflictError).code).toBe('approval_pending');
      const anthropicConflict = await anthropic(threadId)
        .messages.create({ model: 'helpdesk', max_tokens: 10, messages: [{ role: 'user', content: 'and now?' }] })
        .catch((error: unknown) => error);
      expect(anthropicConflict).toBeInstanceOf(AnthropicConflict);
      expect((anthropicConflict as AnthropicConflict).errorCode).toBe('approval_pending');
      const refused = await runHttpAgent(newHttpAgent(server.url, 'helpdesk', threadId), 'and now?').catch((error: unknown) => ({ error }));
      expect(
        'error' in refused || refused.events.some((event) => event.type === EventType.RUN_ERROR && (event as { code?: string }).code === 'interrupts_pending'),
      ).toBe(true);
      expect(await countRows(server.databaseUrl, threadId)).toEqual(before);
      expect((await readThread(server.url, 'helpdesk', threadId)).body.queue).toEqual([]);

      await approveOutOfBand(server.url, threadId);
      const decided = await settled(server.url, threadId);
      expect(decided.messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
      expect(decided.messages[7]!.tool_calls![0]).toMatchObject({ id: toolUse.type === 'tool_use' && toolUse.id, function: { name: 'closeTicket' } });
      expect(decided.messages[9]!.content).toBe('Closed ticket T-7.');

      // Back on AG-UI: the first run's snapshot is the whole history, with the log's ids, and nothing twice.
      const back = await runHttpAgent(agent, 'thanks');
      expect(back.logged).toEqual([]);
      const snapshot = back.events.find((event) => event.type === EventType.MESSAGES_SNAPSHOT) as MessagesSnapshotEvent;
      expect(snapshot.messages.slice(0, decided.messages.length).map((message) => message.id)).toEqual(decided.messages.map((message) => message.id));
      const ids = agent.messages.map((message) => message.id);
      expect(new Set(ids).size).toBe(ids.length);
      const final = (await session(server.url, threadId)) as Session;
      // The snapshot carries the log's order; HttpAgent keeps its local order for messages it
      // already had and appends the ones it learns from the snapshot, so compare as sets.
      expect([...ids].sort()).toEqual(final.messages.map((message) => message.id).sort());
      expect(final.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
        'look up order po_42',
        'hello from openai',
        'close ticket T-7',
        'thanks',
      ]);

      // The Anthropic view of the same log: alternating turns, tool results as user turns.
      const asAnthropic = (await session(server.url, threadId, 'anthropic')) as { messages: { role: string; content: { type: string }[] }[] };
      expect(asAnthropic.messages.map((message) => message.role)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 ? 'assistant' : 'user')));
      expect(asAnthropic.messages[2]!.content.map((block) => block.type)).toEqual(['tool_result']);
      expect(asAnthropic.messages[3]!.content.map((block) => block.type)).toEqual(['text']);
    });
  });
}
