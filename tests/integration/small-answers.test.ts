// Small answers leave `next start` as they are; large ones are still compressed
// (server/http/small-answers.ts): a compressor for every small answer made a flooded server's
// health check wait twice as long (docs/internals/benchmarks.md, "Small answers without a compressor").
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { postRun, userMessage } from '../support/agui';
import { backends } from '../support/backends';

const GZIP = { 'accept-encoding': 'gzip' };

for (const server of backends()) {
  describe(`answers and compression on ${server.kind}`, () => {
    it('a health check and a refusal come back uncompressed to a client that accepts gzip', async () => {
      const health = await fetch(`${server.url}/api/health`, { headers: GZIP });
      expect(health.status).toBe(200);
      expect(health.headers.get('content-encoding')).toBeNull();
      expect(await health.json()).toMatchObject({ ok: true });

      const refused = await fetch(`${server.url}/api/hitl/${randomUUID()}/approve`, { method: 'POST', headers: GZIP });
      expect(refused.status).toBe(404);
      expect(refused.headers.get('content-encoding')).toBeNull();
      expect(await refused.json()).toMatchObject({ error: { code: 'not_found' } });
    });

    it('a thread of more than 1 KB is still compressed, and reads whole', async () => {
      const threadId = randomUUID();
      const turn = await postRun(server.url, 'helpdesk', { threadId, runId: randomUUID(), messages: [userMessage('reply with 300 tokens')] });
      expect(turn.status).toBe(200);
      const thread = await fetch(`${server.url}/api/agents/helpdesk?threadId=${threadId}`, { headers: { ...GZIP, accept: 'application/json' } });
      expect(thread.status).toBe(200);
      expect(thread.headers.get('content-encoding')).toBe('gzip');
      const body = (await thread.json()) as { messages: { role: string; parts: { type: string; content?: string }[] }[] };
      const answer = body.messages.find((message) => message.role === 'assistant')?.parts.find((part) => part.type === 'text');
      expect(answer?.content?.split(' ')).toHaveLength(300);
    });
  });
}
