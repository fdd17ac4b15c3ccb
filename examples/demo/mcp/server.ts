// A real MCP server for the MCP demo agent and the tests (docs/mcp.md, "The demo server"),
// written with the official SDK's McpServer and served by this app at /api/demo/mcp in both
// protocol eras. Its tools: two that only read, one with a side effect (a note, kept once per
// idempotency key in the server instance's own bounded notebook, notebook.ts), and two that ask
// the person — a form, and a link to open. They ask the 2026-07-28 way, by answering
// `input_required` and reading the answer when the call comes again; on a 2025-era session the
// SDK asks for them (elicitation/create) and calls them again with the answer.
import { acceptedContent, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MCP_IDEMPOTENCY_META_KEY } from '../../../server/runtime';
import { createNotebook, NOTE_KEY_MAX_CHARS, NOTE_MAX_CHARS, NOTES_PER_SESSION } from './notebook';

const DOCS: Record<string, string> = {
  refunds: 'Refunds go back to the original payment method within 5 business days.',
  shipping: 'Orders ship within 2 business days; tracking arrives by email.',
  returns: 'Items may be returned within 30 days, unused and in their box.',
};

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const REVIEW_DAY = z.object({ day: z.enum(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']), note: z.string().optional() });

/** A new server instance: one per 2025-era MCP session, or per 2026-07-28 request (the SDK's McpServer serves one transport). */
export function createDemoMcpServer(): McpServer {
  const server = new McpServer({ name: 'stackbone-demo', version: '1.0.0' });
  const notebook = createNotebook();

  server.registerTool(
    'search_docs',
    {
      title: 'Search the help docs',
      description: `Find the help article on a topic: ${Object.keys(DOCS).join(', ')}.`,
      inputSchema: z.object({ topic: z.string().min(1).describe('What to look up, e.g. refunds') }),
      annotations: { readOnlyHint: true },
    },
    async ({ topic }) => {
      const found = Object.entries(DOCS).find(([name]) => topic.toLowerCase().includes(name));
      return text(found ? `${found[0]}: ${found[1]}` : `No article on "${topic}". Topics: ${Object.keys(DOCS).join(', ')}.`);
    },
  );

  server.registerTool(
    'word_count',
    {
      title: 'Count words',
      description: 'Count the words of a text.',
      inputSchema: z.object({ text: z.string().describe('The text') }),
      outputSchema: z.object({ words: z.number().int() }),
      annotations: { readOnlyHint: true },
    },
    async ({ text: words }) => {
      const count = words.split(/\s+/).filter(Boolean).length;
      return { ...text(`${count} words.`), structuredContent: { words: count } };
    },
  );

  server.registerTool(
    'record_note',
    {
      title: 'Record a note',
      description: `Record a note in the team notebook (a side effect, kept once per call; up to ${NOTE_MAX_CHARS} characters).`,
      inputSchema: z.object({ key: z.string().min(1).max(NOTE_MAX_CHARS).meta({ title: 'Note', description: 'What to record' }) }),
      annotations: { destructiveHint: false, idempotentHint: true },
    },
    async ({ key }, ctx) => {
      const idempotencyKey = ctx.mcpReq._meta?.[MCP_IDEMPOTENCY_META_KEY];
      if (typeof idempotencyKey !== 'string' || !idempotencyKey || idempotencyKey.length > NOTE_KEY_MAX_CHARS) {
        return { ...text(`record_note needs an idempotency key of 1 to ${NOTE_KEY_MAX_CHARS} characters in _meta.`), isError: true };
      }
      const outcome = notebook.keep(idempotencyKey, key);
      if (outcome === 'full') return { ...text(`The notebook of this session is full (${NOTES_PER_SESSION} notes): start a new session.`), isError: true };
      return text(outcome === 'kept' ? `Recorded "${key}".` : `"${key}" was already recorded by this call.`);
    },
  );

  server.registerTool(
    'schedule_review',
    {
      title: 'Schedule a review',
      description: 'Schedule a review of a topic; asks the person which day.',
      inputSchema: z.object({ topic: z.string().min(1).describe('What to review') }),
    },
    async ({ topic }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'day');
      if (answer.kind === 'missing') {
        return inputRequired({
          inputRequests: {
            day: inputRequired.elicit({
              message: `Which day should the review of ${topic} be?`,
              requestedSchema: {
                type: 'object',
                properties: {
                  day: { type: 'string', title: 'Day', enum: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] },
                  note: { type: 'string', title: 'Note for the reviewers' },
                },
                required: ['day'],
              },
            }),
          },
        });
      }
      if (answer.kind !== 'elicit' || answer.action !== 'accept')
        return text(`No review of ${topic} scheduled: the person chose ${answer.kind === 'elicit' ? answer.action : 'nothing'}.`);
      // The answer comes from the client: checked before it is used.
      const chosen = acceptedContent(ctx.mcpReq.inputResponses, 'day', REVIEW_DAY);
      if (!chosen) return { ...text('The answer is not a day of the week.'), isError: true };
      return text(`Review of ${topic} scheduled for ${chosen.day}${chosen.note ? ` (note: ${chosen.note})` : ''}.`);
    },
  );

  server.registerTool(
    'connect_calendar',
    {
      title: 'Connect a calendar',
      description: 'Connect the team calendar; the person opens a link to allow it.',
      inputSchema: z.object({}),
    },
    async (_input, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'authorize');
      if (answer.kind === 'missing') {
        return inputRequired({
          inputRequests: {
            authorize: inputRequired.elicitUrl({
              message: 'Open the link to allow access to the team calendar.',
              url: 'https://calendar.example.com/authorize?client=stackbone-demo',
            }),
          },
        });
      }
      const action = answer.kind === 'elicit' ? answer.action : 'nothing';
      return text(action === 'accept' ? 'The calendar is connected.' : `The calendar is not connected: the person chose ${action}.`);
    },
  );

  return server;
}
