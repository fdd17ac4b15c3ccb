// An agent whose tools all come from an MCP server (docs/mcp.md, "MCP in"): the demo server this
// app serves itself at /api/demo/mcp, so `npm run dev` shows it offline with no other process. It
// presents the demo's own credential, as a keyed server's demo answers no one without one.
import { defineDeepAgent, ownOrigin } from '../../../server/agent-kit';
import { DEMO_MCP_CREDENTIAL_HEADER, demoMcpCredential } from '../mcp/credential';

export default defineDeepAgent({
  name: 'mcp-demo',
  displayName: 'MCP demo',
  description: "Uses an MCP server's tools: help docs, a notebook (asks your approval), and questions the server asks you.",
  suggestions: ['Search the docs for refunds', 'Record a note: launch on Friday', 'Schedule a review of the launch plan', 'Connect my calendar'],
  model: 'openai/gpt-4o-mini',
  instructions:
    'You help a small team with the tools of the demo MCP server: search the docs, count words, record notes, schedule reviews and connect the calendar. Be brief.',
  mcpServers: [
    {
      name: 'demo',
      url: () => new URL('/api/demo/mcp', ownOrigin()),
      headers: () => ({ [DEMO_MCP_CREDENTIAL_HEADER]: demoMcpCredential() }),
    },
  ],
  // What the offline scripted model understands: one sentence per tool of the server, by its full name (docs/mcp.md).
  offline: {
    phrases: [
      {
        call: 'demo_search_docs',
        example: 'search the docs for refunds',
        pattern: /^(?:search|look\s+in)\s+the\s+docs\s+(?:for|about|on)\s+(.+)$/i,
        input: (m) => ({ topic: m[1]! }),
      },
      { call: 'demo_record_note', example: 'record a note: launch on Friday', pattern: /^record\s+a\s+note:?\s+(.+)$/i, input: (m) => ({ key: m[1]! }) },
      {
        call: 'demo_schedule_review',
        example: 'schedule a review of the launch plan',
        pattern: /^schedule\s+a\s+review\s+(?:of|for)\s+(.+)$/i,
        input: (m) => ({ topic: m[1]! }),
      },
      { call: 'demo_connect_calendar', example: 'connect my calendar', pattern: /^connect\s+(?:my|the|our)\s+calendar$/i, input: () => ({}) },
      {
        call: 'demo_word_count',
        example: 'count the words in: to be or not to be',
        pattern: /^count\s+the\s+words\s+(?:in|of):?\s+(.+)$/i,
        input: (m) => ({ text: m[1]! }),
      },
    ],
  },
  // Every tool of the server needs a person's approval, so one it adds later does too ('demo_*');
  // those named here by their full name run freely (the full name wins).
  toolApproval: {
    // A tool the server adds later has no describe() here: its card is headed by its title, its arguments as fields below.
    'demo_*': 'user-approval',
    demo_record_note: { policy: 'user-approval', describe: (input: { key: string }) => `Record a note: “${input.key}”` },
    demo_search_docs: 'approved',
    demo_word_count: 'approved',
    demo_schedule_review: 'approved',
    demo_connect_calendar: 'approved',
  },
});
