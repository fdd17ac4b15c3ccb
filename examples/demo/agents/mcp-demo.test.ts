// The MCP demo agent's offline phrases drive its server's tools from its own suggestions, through
// the scripted model and the real AI SDK streamText, as `npm run dev` does with no model key.
import { streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel } from '../../../server/models/scripted';
import mcpDemo from './mcp-demo';

const topic = tool({ inputSchema: z.object({ topic: z.string() }) });
const tools = {
  demo_search_docs: topic,
  demo_schedule_review: topic,
  demo_record_note: tool({ inputSchema: z.object({ key: z.string() }) }),
  demo_connect_calendar: tool({ inputSchema: z.object({}) }),
  demo_word_count: tool({ inputSchema: z.object({ text: z.string() }) }),
};

async function calls(prompt: string) {
  const result = streamText({ model: createScriptedModel({ phrases: mcpDemo.offline.phrases }), tools, prompt, onError: () => {} });
  const found: { toolName: string; input: unknown }[] = [];
  for await (const part of result.stream) if (part.type === 'tool-call') found.push({ toolName: part.toolName, input: part.input });
  return found;
}

describe('the MCP demo agent offline', () => {
  it('calls each tool of its server from its suggestions', async () => {
    expect(mcpDemo.suggestions).toContain('Search the docs for refunds');
    expect(await calls('Search the docs for refunds')).toEqual([{ toolName: 'demo_search_docs', input: { topic: 'refunds' } }]);
    expect(await calls('Record a note: launch on Friday')).toEqual([{ toolName: 'demo_record_note', input: { key: 'launch on Friday' } }]);
    expect(await calls('Schedule a review of the launch plan')).toEqual([{ toolName: 'demo_schedule_review', input: { topic: 'the launch plan' } }]);
    expect(await calls('Connect my calendar')).toEqual([{ toolName: 'demo_connect_calendar', input: {} }]);
    expect(await calls('count the words in: to be or not to be')).toEqual([{ toolName: 'demo_word_count', input: { text: 'to be or not to be' } }]);
  });
});
