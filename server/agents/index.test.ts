// The registry is the one list of agents; this keeps it honest: every agent file in this
// folder and in the demo's (examples/demo/agents/, while the demo is there), and with
// STACKBONE_FIXTURE_AGENTS=1 every fixture agent's in tests/fixtures/agents/, is registered
// (adding an agent is a file and a line), names are unique and URL-safe.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { DeepAgent, ToolApprovalOptions } from '../authoring';

/** The agents the files of a folder define (their default exports). */
async function definedIn(folder: string): Promise<DeepAgent[]> {
  const files = readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && file !== 'index.ts');
  const defined: DeepAgent[] = [];
  for (const file of files) {
    const exported = (await import(path.join(folder, file))) as { default?: DeepAgent };
    if (exported.default?.kind === 'deep-agent') defined.push(exported.default);
  }
  return defined;
}

const here = path.dirname(new URL(import.meta.url).pathname);
const demo = path.resolve(here, '../../examples/demo');

/** The agents of the app's folder and of the demo's (gone after `npm run demo:remove`), which the registry lists on one line. */
async function appAndDemoAgents(): Promise<DeepAgent[]> {
  return [...(await definedIn(here)), ...(existsSync(demo) ? await definedIn(path.join(demo, 'agents')) : [])];
}

describe('the agent registry', () => {
  it('lists every agent defined in server/agents/*.ts and examples/demo/agents/*.ts, and the fixture agents of tests/fixtures/agents/*.ts when asked to', async () => {
    process.env.STACKBONE_FIXTURE_AGENTS = '1';
    const { agents, findAgent } = await import('./index');
    const product = await appAndDemoAgents();
    const fixtures = await definedIn(path.resolve(here, '../../tests/fixtures/agents'));
    expect(fixtures.length).toBeGreaterThan(0);
    const defined = [...product, ...fixtures];
    expect(defined.map((agent) => agent.name).sort()).toEqual(agents.map((agent) => agent.name).sort());
    for (const agent of defined) expect(findAgent(agent.name)).toBe(agent);
    expect(findAgent('nobody')).toBeUndefined();
  });

  it('has the fixture helpdesk and taskboard with their approval policies', async () => {
    const { findAgent } = await import('./index');
    const support = findAgent('helpdesk')!;
    expect(Object.keys(support.tools).sort()).toEqual(['closeTicket', 'lookupOrder', 'refundPayment', 'remindMe']);
    expect(support.toolApproval.remindMe).toBeUndefined(); // a reminder runs freely
    expect(support.toolApproval.closeTicket).toMatchObject({ policy: 'user-approval' });
    expect(support.toolApproval.refundPayment).toMatchObject({ policy: 'user-approval', allowEdit: true, ttl: '24h' });
    const planner = findAgent('taskboard')!;
    expect(planner.subagents.map((agent) => agent.name)).toEqual(['librarian']);
    expect(Object.keys(planner.editableState)).toEqual(['draft']);
    expect(planner.initialState).toEqual({ todos: [], draft: '' });
  });

  it('names every tool for people, and says in a sentence what each gated call would do', async () => {
    const { agents, findAgent } = await import('./index');
    for (const agent of agents.filter((entry) => entry.name !== 'ledger')) {
      for (const [name, definition] of Object.entries(agent.tools)) expect(definition.title, `${agent.name}.${name}`).toMatch(/^[A-Z].{2,}/);
      for (const [name, spec] of Object.entries(agent.toolApproval)) {
        // A pattern ('demo_*') stands for tools not known yet: their cards are headed by their titles.
        if (spec === 'approved' || name.includes('*')) continue;
        expect(typeof spec === 'object' && typeof spec.describe, `${agent.name}.${name}`).toBe('function');
      }
    }
    const approval = findAgent('helpdesk')!.toolApproval as Record<string, ToolApprovalOptions>;
    expect(approval.refundPayment!.describe!({ orderId: 'po_42', amount: 19.99 })).toBe('Refund $19.99 on order po_42');
    // Worded from the arguments alone: an edited amount reads as what would now run.
    expect(approval.refundPayment!.describe!({ orderId: 'po_7', amount: 4.5 })).toBe('Refund $4.50 on order po_7');
    expect(approval.closeTicket!.describe!({ ticketId: 'T-7' })).toBe('Close ticket T-7');
  });

  it('lists no fixture agent on a server started without STACKBONE_FIXTURE_AGENTS=1, though its build has them', async () => {
    vi.resetModules();
    delete process.env.STACKBONE_FIXTURE_AGENTS;
    const { agents } = await import('./index');
    const { fixtureAgents } = await import('@stackbone/fixture-agents');
    expect(fixtureAgents.length).toBeGreaterThan(0);
    expect(agents.map((agent) => agent.name).sort()).toEqual((await appAndDemoAgents()).map((agent) => agent.name).sort());
    // The home page lists them in the registry's order: the app's own, then the demo's as examples/demo/index.ts has them.
    const demoAgents = existsSync(demo) ? ((await import(path.join(demo, 'index.ts'))) as { demoAgents: DeepAgent[] }).demoAgents : [];
    expect(agents.slice(agents.length - demoAgents.length).map((agent) => agent.name)).toEqual(demoAgents.map((agent) => agent.name));
  });
});
