// MCP in (docs/mcp.md): an agent uses an MCP server's tools — here the demo server the app serves
// at /api/demo/mcp, written with the official SDK's McpServer and reached by the official Client —
// listed like its own, gated by toolApproval, and the server's questions (elicitation) answered
// from our inbox. On real servers, SQLite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { EventType, type RunFinishedEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { readLedger } from '../../../tests/fixtures/agents/ledger';
import type { SessionEvent } from '../../../server/store/events';
import { postRun, userMessage } from '../../../tests/support/agui';
import { backends } from '../../../tests/support/backends';
import { eventually, readSessionEvents } from '../../../tests/support/inspect';

interface PendingInterrupt {
  id: string;
  sessionId: string;
  reason: string;
  toolName: string;
  message: string;
  responseSchema: Record<string, unknown>;
  url?: string;
}

for (const server of backends()) {
  /** One turn of the MCP demo agent over AG-UI; the run's outcome as it ended. */
  async function turn(text: string) {
    const threadId = randomUUID();
    const run = await postRun(server.url, 'mcp-demo', { threadId, runId: randomUUID(), messages: [userMessage(text)] });
    const finished = run.events.at(-1) as RunFinishedEvent;
    expect(finished.type).toBe(EventType.RUN_FINISHED);
    return { threadId, outcome: finished.outcome };
  }

  /** The one pending interrupt of the thread, as the inbox lists it. */
  async function pendingOf(threadId: string): Promise<PendingInterrupt> {
    const response = await fetch(`${server.url}/api/hitl`);
    const { interrupts } = (await response.json()) as { interrupts: PendingInterrupt[] };
    const own = interrupts.filter((interrupt) => interrupt.sessionId === threadId);
    expect(own).toHaveLength(1);
    return own[0]!;
  }

  async function decide(id: string, decision: 'approve' | 'reject', body: object) {
    const response = await fetch(`${server.url}/api/hitl/${id}/${decision}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  }

  /** What the tool answered, once the thread has its result. */
  const toolResult = (threadId: string, toolName: string) =>
    eventually(
      async () => {
        const events = await readSessionEvents(server.databaseUrl, threadId);
        const result = events.find(
          (event): event is Extract<SessionEvent, { type: 'tool_result' }> => event.type === 'tool_result' && event.message.toolName === toolName,
        );
        return result && String(result.message.content);
      },
      15_000,
      `the result of ${toolName}`,
    );

  describe(`MCP in on ${server.kind}`, () => {
    it("lists the MCP server's tools in the agent directory, named <server>_<tool>, with their input schemas", async () => {
      const { agents } = (await (await fetch(`${server.url}/api/agents`)).json()) as {
        agents: { name: string; tools: Record<string, { title: string; inputSchema: { properties: Record<string, unknown> } }> }[];
      };
      const demo = agents.find((agent) => agent.name === 'mcp-demo')!;
      expect(Object.keys(demo.tools).sort()).toEqual([
        'demo_connect_calendar',
        'demo_record_note',
        'demo_schedule_review',
        'demo_search_docs',
        'demo_word_count',
        'write_todos',
      ]);
      expect(demo.tools.demo_search_docs).toMatchObject({ title: 'Search the help docs', inputSchema: { properties: { topic: { type: 'string' } } } });
    });

    it('a free MCP tool runs at once and the model reads its answer', async () => {
      const { threadId, outcome } = await turn('call demo_search_docs {"topic": "refunds"}');
      expect(outcome).toMatchObject({ type: 'success' });
      expect(await toolResult(threadId, 'demo_search_docs')).toContain('Refunds go back to the original payment method');
    });

    it("a gated MCP tool (by the server's wildcard) waits for a person, then runs exactly once", async () => {
      const key = `note-${randomUUID()}`;
      const { threadId, outcome } = await turn(`call demo_record_note {"key": "${key}"}`);
      expect(outcome).toMatchObject({ type: 'interrupt' });
      const effects = () => readLedger(server.ledgerFile).filter((line) => line.kind === 'effect' && line.key === key);
      expect(effects()).toHaveLength(0);
      const pending = await pendingOf(threadId);
      expect(pending).toMatchObject({ reason: 'tool_call', toolName: 'demo_record_note' });
      await decide(pending.id, 'approve', {});
      expect(await toolResult(threadId, 'demo_record_note')).toBe(`Recorded "${key}".`);
      expect(effects()).toHaveLength(1);
    });

    it("the server's question becomes an input_required interrupt; the answer, or a decline, goes back to the server", async () => {
      const asked = await turn('call demo_schedule_review {"topic": "the launch"}');
      expect(asked.outcome).toMatchObject({ type: 'interrupt' });
      const question = await pendingOf(asked.threadId);
      expect(question).toMatchObject({
        reason: 'input_required',
        toolName: 'demo_schedule_review',
        message: 'Which day should the review of the launch be?',
        responseSchema: { properties: { day: { enum: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] } }, required: ['day'] },
      });
      await decide(question.id, 'approve', { payload: { day: 'Tuesday', note: 'bring the numbers' } });
      expect(await toolResult(asked.threadId, 'demo_schedule_review')).toBe('Review of the launch scheduled for Tuesday (note: bring the numbers).');

      const declined = await turn('call demo_schedule_review {"topic": "the budget"}');
      const second = await pendingOf(declined.threadId);
      await decide(second.id, 'reject', { reason: 'not this week' });
      expect(await toolResult(declined.threadId, 'demo_schedule_review')).toBe('No review of the budget scheduled: the person chose decline.');
    });

    it("a URL-mode question carries the server's link; approving it is the server's accept", async () => {
      const { threadId } = await turn('call demo_connect_calendar {}');
      const question = await pendingOf(threadId);
      expect(question).toMatchObject({
        reason: 'input_required',
        message: 'Open the link to allow access to the team calendar.',
        url: 'https://calendar.example.com/authorize?client=stackbone-demo',
      });
      await decide(question.id, 'approve', { payload: {} });
      expect(await toolResult(threadId, 'demo_connect_calendar')).toBe('The calendar is connected.');
    });
  });
}
