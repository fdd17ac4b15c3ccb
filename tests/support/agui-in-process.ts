// An AG-UI client of an agent served in this process: the real @ag-ui/client HttpAgent reading
// the wire's SSE of real runs, each request run on one memory store as POST /api/agents/{name}
// runs it (unit tests of the AG-UI wire).
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import type { DeepAgent } from '../../server/authoring';
import { startRun } from '../../server/runtime/turn-control/turns';
import { createMemoryStore } from '../../server/store/memory-store';
import { fromAgUiMessages, parseRunAgentInput } from '../../server/wire/agui/input';
import { agUiStream } from '../../server/wire/agui/stream';

export function inProcessAgUiClient(agent: DeepAgent) {
  const store = createMemoryStore();
  /** The events of the last `send`. */
  const events: BaseEvent[] = [];
  const http = new HttpAgent({
    url: `http://server.test/api/agents/${agent.name}`,
    threadId: 't1',
    fetch: async (_url, init) => {
      const input = parseRunAgentInput(JSON.parse(String(init?.body)));
      const run = await startRun({
        agent,
        store,
        sessionId: input.threadId,
        ownerId: 'o1',
        source: 'agui',
        runId: input.runId,
        messages: fromAgUiMessages(input.messages),
      });
      return agUiStream(run.stream(), { threadId: input.threadId, runId: input.runId, strict: true, accept: 'text/event-stream' });
    },
  });
  const send = async (content: string) => {
    events.length = 0;
    http.addMessage({ id: crypto.randomUUID(), role: 'user', content });
    await http.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  };
  return { http, events, send, store };
}
