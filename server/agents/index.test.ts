// The registry is the one list of agents; this keeps it honest: every agent file in this
// folder is registered (adding an agent is a file and a line), names are unique and URL-safe.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeepAgent } from '../define';

describe('the agent registry', () => {
  it('lists every agent defined in server/agents/*.ts', async () => {
    process.env.STACKBONE_FIXTURE_AGENTS = '1';
    const { agents, findAgent } = await import('./index');
    const folder = path.dirname(new URL(import.meta.url).pathname);
    const files = readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'index.ts');
    const defined: DeepAgent[] = [];
    for (const file of files) {
      const exported = (await import(`./${file}`)) as { default?: DeepAgent };
      if (exported.default?.kind === 'deep-agent') defined.push(exported.default);
    }
    expect(defined.map((agent) => agent.name).sort()).toEqual(agents.map((agent) => agent.name).sort());
    for (const agent of defined) expect(findAgent(agent.name)).toBe(agent);
    expect(findAgent('nobody')).toBeUndefined();
  });

  it('has the example agents of the demo with their approval policies', async () => {
    const { findAgent } = await import('./index');
    const support = findAgent('support')!;
    expect(Object.keys(support.tools).sort()).toEqual(['closeTicket', 'lookupOrder', 'refundOrder', 'remindMe']);
    expect(support.toolApproval.remindMe).toBeUndefined(); // a reminder runs freely
    expect(support.toolApproval.closeTicket).toBe('user-approval');
    expect(support.toolApproval.refundOrder).toMatchObject({ policy: 'user-approval', allowEdit: true, ttl: '24h' });
    const planner = findAgent('planner')!;
    expect(planner.subagents.map((agent) => agent.name)).toEqual(['researcher']);
    expect(Object.keys(planner.editableState)).toEqual(['draft']);
    expect(planner.initialState).toEqual({ todos: [], draft: '' });
  });
});
