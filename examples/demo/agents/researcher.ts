import { z } from 'zod';
import { defineDeepAgent, tool } from '../../../server/agent-kit';

// A small, fixed library so research works offline and deterministically.
const NOTES: Record<string, string> = {
  launch: 'Launches land best on Tuesdays; announce on the blog first, then email, then social.',
  pricing: 'Three tiers convert best; show the middle one as recommended.',
  email: 'Subject lines under 50 characters get more opens.',
};

/** The pause between two notes read: long enough to see the search's progress live. */
const READ_MS = 400;

// A tool that streams preliminary outputs: each yield is a progress update the chat shows on
// the call as it runs; the last one is the result the model reads (docs/turn-control.md).
const searchNotes = tool({
  title: 'Search the research notes',
  description: 'Search the research notes for a topic.',
  inputSchema: z.object({ query: z.string().meta({ title: 'Topic', description: 'What to look for, e.g. launch timing' }) }),
  async *execute({ query }) {
    const topics = Object.keys(NOTES);
    const hits: { topic: string; note: string }[] = [];
    for (const [index, topic] of topics.entries()) {
      yield { query, status: 'searching', read: index, of: topics.length };
      await new Promise((resolve) => setTimeout(resolve, READ_MS));
      if (query.toLowerCase().includes(topic)) hits.push({ topic, note: NOTES[topic]! });
    }
    yield found(query, hits);
  },
});

function found(query: string, hits: { topic: string; note: string }[]) {
  return { query, hits, summary: hits.length ? hits.map((hit) => hit.note).join(' ') : `No notes on "${query}" yet.` };
}

export default defineDeepAgent({
  name: 'researcher',
  displayName: 'Researcher',
  description: 'Researches a topic in the notes and answers with a short summary.',
  suggestions: ['Launch timing'],
  model: 'openai/gpt-4o-mini',
  instructions: 'You research a topic using searchNotes and answer with a two-sentence summary.',
  tools: { searchNotes },
  toolApproval: { searchNotes: 'approved' },
  // Offline, whatever it is handed is a topic to search for ("research launch timing" too): a
  // delegated task comes in as one sentence.
  offline: { phrases: [{ call: 'searchNotes', example: 'launch timing', pattern: /^(?:research\s+)?(.+)$/i, input: (m) => ({ query: m[1] }) }] },
  // A replay reads the same notes at once, without the pauses (docs/replay.md, "Dry runs").
  dryRun: {
    searchNotes: ({ query }) =>
      found(
        query,
        Object.entries(NOTES)
          .filter(([topic]) => query.toLowerCase().includes(topic))
          .map(([topic, note]) => ({ topic, note })),
      ),
  },
});
