import { tool } from 'ai';
import { z } from 'zod';
import { defineDeepAgent } from '../define';

// A small, fixed library so research works offline and deterministically.
const NOTES: Record<string, string> = {
  launch: 'Launches land best on Tuesdays; announce on the blog first, then email, then social.',
  pricing: 'Three tiers convert best; show the middle one as recommended.',
  email: 'Subject lines under 50 characters get more opens.',
};

const searchNotes = tool({
  description: 'Search the research notes for a topic.',
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => {
    const hits = Object.entries(NOTES)
      .filter(([topic]) => query.toLowerCase().includes(topic))
      .map(([topic, note]) => ({ topic, note }));
    return { query, hits, summary: hits.length ? hits.map((hit) => hit.note).join(' ') : `No notes on "${query}" yet.` };
  },
});

export default defineDeepAgent({
  name: 'researcher',
  description: 'Researches a topic in the notes and answers with a short summary.',
  model: 'openai/gpt-4o-mini',
  instructions: 'You research a topic using searchNotes and answer with a two-sentence summary.',
  tools: { searchNotes },
  toolApproval: { searchNotes: 'approved' },
});
