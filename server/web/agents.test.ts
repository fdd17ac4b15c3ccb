// The agent cards the web app reads (the home page, the chat, GET /api/agents): what a person is
// shown about an agent and its tools — titles, descriptions and the labelled input fields.
import { describe, expect, it } from 'vitest';
import { agentCards, findAgentCard } from './agents';

describe('the agent cards', () => {
  it('name each agent for people', async () => {
    expect((await agentCards()).map((card) => [card.name, card.displayName])).toEqual(
      expect.arrayContaining([
        ['helpdesk', 'Helpdesk'],
        ['taskboard', 'Taskboard'],
        ['librarian', 'Librarian'],
      ]),
    );
  });

  it("give each tool its title, description and input schema, with the fields' labels and formats", async () => {
    const support = (await findAgentCard('helpdesk'))!;
    expect(Object.keys(support.tools).sort()).toEqual(['closeTicket', 'lookupOrder', 'refundPayment', 'remindMe', 'write_todos']);
    const refund = support.tools.refundPayment!;
    expect(refund.title).toBe('Refund an order');
    expect(refund.description).toBe('Refund an order, fully or in part. Needs a human approval.');
    expect(refund.inputSchema).toMatchObject({
      type: 'object',
      required: ['orderId', 'amount'],
      properties: {
        orderId: { type: 'string', title: 'Order' },
        amount: { type: 'number', title: 'Refund amount', format: 'currency', currency: 'USD' },
      },
    });
    expect(support.tools.closeTicket).toMatchObject({ title: 'Close a ticket', inputSchema: { properties: { ticketId: { title: 'Ticket' } } } });
    // The built-ins have titles too; the planner hands tasks to its researcher.
    const planner = (await findAgentCard('taskboard'))!;
    expect(planner.tools.write_todos!.title).toBe('Update the plan');
    expect(planner.tools.delegate_task).toMatchObject({
      title: 'Hand a task to a subagent',
      inputSchema: { properties: { agent: { enum: ['librarian'], title: 'Subagent' }, task: { title: 'Task' } } },
    });
    expect(planner.tools.ask_user!.inputSchema).toMatchObject({ properties: { question: { title: 'Question' } } });
  });

  it('are plain data a client component can take', async () => {
    for (const card of await agentCards()) {
      expect(JSON.parse(JSON.stringify(card))).toEqual(card);
      // React's own rule for a Client Component's props (it warns in development): plain objects
      // and arrays all the way down, no hidden members — a zod JSON Schema's `~standard` was one.
      expect(notPlain(card), card.name).toEqual([]);
    }
  });
});

/** Where value holds something other than plain data: paths of hidden members, getters and class instances. */
function notPlain(value: unknown, at = '$'): string[] {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? [at] : [];
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype) return [`${at} (a ${prototype?.constructor?.name ?? 'null-prototype'} object)`];
  const found: string[] = [];
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (Array.isArray(value) && key === 'length') continue;
    if (!descriptor.enumerable || descriptor.get) found.push(`${at}.${key}`);
    else found.push(...notPlain(descriptor.value, `${at}.${key}`));
  }
  return found;
}
