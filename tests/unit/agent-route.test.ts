// agentRoute (app/api/agent-route.ts): one listed agent mounted at a route of the app's choosing,
// as seed 004's `useAgent({ api: '/api/tools', id })` expects — the run and the thread at the
// mount point, the commands beside them one segment below — over the real route handlers and a
// store, outside Next: its `after()` (which needs Next's request scope) lets the run go on, as
// Node does anyway.
import { randomUUID } from 'node:crypto';
import { EventType } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentRoute } from '@/app/api/agent-route';
import { defineDeepAgent } from '@/server/agent-kit';
import { findAgent } from '@/server/agents';
import { createMemoryStore } from '@/server/store/memory-store';

vi.mock('next/server', () => ({ after: (work: Promise<unknown>) => void work }));

const saved = process.env.STACKBONE_API_KEYS;
beforeAll(() => {
  delete process.env.STACKBONE_API_KEYS; // open dev mode: every request is the local owner
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = createMemoryStore();
});
afterAll(() => {
  (globalThis as { __stackboneStore?: unknown }).__stackboneStore = undefined;
  if (saved !== undefined) process.env.STACKBONE_API_KEYS = saved;
});

const headers = { origin: 'http://localhost:3000', host: 'localhost:3000', 'content-type': 'application/json', accept: 'text/event-stream' };
const at = (command: string[] = []) => ({ params: Promise.resolve(command.length ? { command } : {}) });
const post = (path: string, body: unknown) => new Request(`http://localhost:3000/api/tools${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

async function events(response: Response) {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; outcome?: { type: string; interrupts?: { id: string }[] } });
}

describe('agentRoute(agent): an agent at a route of the app’s choosing', () => {
  const { GET, POST } = agentRoute(findAgent('helpdesk')!);

  it('runs and pauses at the mount point, shows the thread there, and takes the decision one segment below', async () => {
    const threadId = randomUUID();
    const paused = await events(
      await POST(
        post('', { threadId, runId: randomUUID(), messages: [{ id: randomUUID(), role: 'user', content: 'close ticket T-7 and close ticket T-8' }] }),
        at(),
      ),
    );
    const outcome = paused.at(-1)!.outcome!;
    expect(outcome.type).toBe('interrupt');
    const [first, second] = outcome.interrupts!;

    const thread = await GET(
      new Request(`http://localhost:3000/api/tools?threadId=${threadId}`, { headers: { ...headers, accept: 'application/json' } }),
      at(),
    );
    expect(thread.status).toBe(200);
    expect(((await thread.json()) as { interrupts: { pending: { id: string }[] } }).interrupts.pending.map((interrupt) => interrupt.id)).toEqual([
      first!.id,
      second!.id,
    ]);

    // One decision of the batch on its own, as useAgent's approve() sends it.
    const decided = await POST(post('/decide', { threadId, interruptId: first!.id, action: 'approve' }), at(['decide']));
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ interruptId: first!.id, decision: { status: 'approved' }, continuation: null });
    // The last one as the resume: the turn goes on, both calls run.
    const resumed = await events(
      await POST(
        post('', { threadId, runId: randomUUID(), messages: [], resume: [{ interruptId: second!.id, status: 'resolved', payload: { approved: true } }] }),
        at(),
      ),
    );
    expect(resumed.filter((event) => event.type === EventType.TOOL_CALL_RESULT)).toHaveLength(2);
    expect(resumed.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: 'success' } });
  });

  it('answers 404 for a path it does not serve', async () => {
    const unknown = await POST(post('/nothing', {}), at(['nothing']));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found', what: 'endpoint' } });
    expect((await GET(new Request('http://localhost:3000/api/tools/decide', { headers }), at(['decide']))).status).toBe(404);
  });

  it('refuses an agent the registry does not list: nothing could carry its threads on', () => {
    const unlisted = defineDeepAgent({ name: 'support-tools', model: 'scripted/support-tools', instructions: 'Close tickets.' });
    expect(() => agentRoute(unlisted)).toThrow(/agentRoute\(support-tools\): list the agent in server\/agents\/index\.ts first/);
  });
});
