// A real MCP server for the MCP demo agent and the tests (docs/mcp.md, "The demo server"),
// written with the official SDK's McpServer and served by this app at /api/demo/mcp. Its tools:
// two that only read, one with a side effect (a note, kept once per idempotency key in the MCP
// session's own bounded notebook, notebook.ts), and two that ask the person through
// elicitation — a form, and a link to open.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MCP_IDEMPOTENCY_META_KEY } from '../../../server/runtime';
import { createNotebook, NOTE_KEY_MAX_CHARS, NOTE_MAX_CHARS, NOTES_PER_SESSION } from './notebook';

const DOCS: Record<string, string> = {
  refunds: 'Refunds go back to the original payment method within 5 business days.',
  shipping: 'Orders ship within 2 business days; tracking arrives by email.',
  returns: 'Items may be returned within 30 days, unused and in their box.',
};

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** A new server instance: one per MCP session (the SDK's McpServer serves one transport). */
export function createDemoMcpServer(): McpServer {
  const server = new McpServer({ name: 'stackbone-demo', version: '1.0.0' });
  const notebook = createNotebook();

  server.registerTool(
    'search_docs',
    {
      title: 'Search the help docs',
      description: `Find the help article on a topic: ${Object.keys(DOCS).join(', ')}.`,
      inputSchema: { topic: z.string().min(1).describe('What to look up, e.g. refunds') },
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
      inputSchema: { text: z.string().describe('The text') },
      outputSchema: { words: z.number().int() },
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
      inputSchema: { key: z.string().min(1).max(NOTE_MAX_CHARS).meta({ title: 'Note', description: 'What to record' }) },
      annotations: { destructiveHint: false, idempotentHint: true },
    },
    async ({ key }, extra) => {
      const idempotencyKey = extra._meta?.[MCP_IDEMPOTENCY_META_KEY];
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
      inputSchema: { topic: z.string().min(1).describe('What to review') },
    },
    async ({ topic }, extra) => {
      const answer = await server.server.elicitInput(
        {
          mode: 'form',
          message: `Which day should the review of ${topic} be?`,
          requestedSchema: {
            type: 'object',
            properties: {
              day: { type: 'string', title: 'Day', enum: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] },
              note: { type: 'string', title: 'Note for the reviewers' },
            },
            required: ['day'],
          },
        },
        { relatedRequestId: extra.requestId },
      );
      if (answer.action !== 'accept') return text(`No review of ${topic} scheduled: the person chose ${answer.action}.`);
      const { day, note } = answer.content as { day: string; note?: string };
      return text(`Review of ${topic} scheduled for ${day}${note ? ` (note: ${note})` : ''}.`);
    },
  );

  server.registerTool(
    'connect_calendar',
    {
      title: 'Connect a calendar',
      description: 'Connect the team calendar; the person opens a link to allow it.',
      inputSchema: {},
    },
    async (_input, extra) => {
      const answer = await server.server.elicitInput(
        {
          mode: 'url',
          message: 'Open the link to allow access to the team calendar.',
          url: 'https://calendar.example.com/authorize?client=stackbone-demo',
          elicitationId: `calendar-${extra.requestId}`,
        },
        { relatedRequestId: extra.requestId },
      );
      return text(answer.action === 'accept' ? 'The calendar is connected.' : `The calendar is not connected: the person chose ${answer.action}.`);
    },
  );

  return server;
}
