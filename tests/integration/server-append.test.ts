// Server append (docs/turn-control.md): trusted code — here the example webhook — takes a turn
// on a session, and a client following the thread's session stream sees it live; a redelivered
// webhook adds nothing; bad input is refused.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { joinStream, postRun, readThread, userMessage } from '../support/agui';
import { backends } from '../support/backends';
import { readSessionEvents } from '../support/inspect';

async function webhook(url: string, agent: string, body: unknown) {
  const response = await fetch(`${url}/api/webhooks/${agent}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string } } };
}

for (const server of backends()) {
  describe(`server append on ${server.kind}`, () => {
    it('a webhook turn reaches a client following the thread, live, and a redelivery adds nothing', async () => {
      const threadId = randomUUID();
      await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('hello')] });
      const { cursor } = (await readThread(server.url, 'helpdesk', threadId)).body as { cursor: string };

      // Following from the cursor, nothing happens on the thread but the webhook's turn.
      const following = joinStream(server.url, 'helpdesk', { threadId, offset: cursor }, { stop: ({ event }) => event.type === 'RUN_FINISHED' });
      const delivered = await webhook(server.url, 'helpdesk', { threadId, text: 'reply with 3 tokens', id: 'delivery-1' });
      expect(delivered).toMatchObject({ status: 202, body: { threadId, appended: true } });
      const runId = delivered.body.runId as string;

      const { events } = await following;
      expect(events[0]).toMatchObject({ type: 'RUN_STARTED', runId });
      const snapshot = events.find((event) => event.type === 'MESSAGES_SNAPSHOT') as { messages: { id: string; content?: string }[] } | undefined;
      expect(snapshot?.messages.at(-1)).toMatchObject({ id: 'delivery-1', content: 'reply with 3 tokens' });
      const text = events
        .filter((event) => event.type === 'TEXT_MESSAGE_CONTENT')
        .map((event) => (event as unknown as { delta: string }).delta)
        .join('');
      expect(text).toBe('token1 token2 token3');

      const again = await webhook(server.url, 'helpdesk', { threadId, text: 'reply with 3 tokens', id: 'delivery-1' });
      expect(again).toMatchObject({ status: 200, body: { appended: false, runId: null } });
      const added = (await readSessionEvents(server.databaseUrl, threadId)).filter(
        (event) => event.type === 'message_added' && event.message.id === 'delivery-1',
      );
      expect(added).toHaveLength(1);
    });

    it('refuses an unknown agent and a malformed body; a message for a thread waiting on a decision is queued, not written', async () => {
      expect(await webhook(server.url, 'nobody', { threadId: randomUUID(), text: 'hi' })).toMatchObject({
        status: 404,
        body: { error: { code: 'not_found', what: 'agent' } },
      });
      expect(await webhook(server.url, 'helpdesk', { threadId: 'has spaces', text: 'hi' })).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request' } },
      });
      expect(await webhook(server.url, 'helpdesk', { threadId: randomUUID(), text: 'hi', extra: true })).toMatchObject({ status: 400 });

      const threadId = randomUUID();
      await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('close ticket T-7')] });
      const before = (await readSessionEvents(server.databaseUrl, threadId)).length;
      expect(await webhook(server.url, 'helpdesk', { threadId, text: 'any news?', id: 'delivery-9' })).toMatchObject({
        status: 202,
        body: { appended: true, queued: true },
      });
      expect(await readSessionEvents(server.databaseUrl, threadId)).toHaveLength(before);
      // A redelivery while it waits is the same queued message.
      expect(await webhook(server.url, 'helpdesk', { threadId, text: 'any news?', id: 'delivery-9' })).toMatchObject({ status: 202, body: { queued: true } });
      expect((await readThread(server.url, 'helpdesk', threadId)).body.queue).toEqual([expect.objectContaining({ id: 'delivery-9', content: 'any news?' })]);
    });
  });
}
