// Item 2: what a turn writes — log rows and database transactions — for a 200- and a 2,000-token
// reply and a 5-step tool turn. In process, on the real Prisma store (the HTTP route adds no
// writes of its own: docs/internals/architecture.md, "The step loop"), counted at the SQL drivers
// (bench/lib/sql-counter.ts); rows are counted in the database.
import { randomUUID } from 'node:crypto';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { DeepAgent } from '../../server/authoring';
import { findAgent } from '../../server/agents';
import { createScriptedModel } from '../../server/models/scripted';
import { startRun } from '../../server/runtime';
import { createPrismaStore } from '../../server/store/prisma-store';
import type { EventStore } from '../../server/store/types';
import { readSessionLog } from '../../tests/support/inspect';
import type { BenchDatabase } from '../lib/servers';
import { installSqlCounter, startCounting, type SqlCounts } from '../lib/sql-counter';

interface TurnWrites extends SqlCounts {
  eventRows: number;
  modelSteps: number;
}

export interface WritesPerTurn {
  text200: TurnWrites;
  text2000: TurnWrites;
  toolTurn5Steps: TurnWrites;
}

const TOOL_STEPS = 5;

/**
 * The scripted model, made to call lookupOrder in each of a turn's first four steps and to
 * answer in the fifth: the scripted model alone answers after the first tool result.
 */
function fiveStepModel(): LanguageModelV4 {
  const scripted = createScriptedModel();
  const callAgain = (options: LanguageModelV4CallOptions): LanguageModelV4CallOptions => {
    const results = options.prompt.filter((message) => message.role === 'tool').length;
    if (results >= TOOL_STEPS - 1) return options;
    return { ...options, prompt: [...options.prompt, { role: 'user', content: [{ type: 'text', text: 'look up order po_42' }] }] };
  };
  return { ...scripted, doStream: (options) => scripted.doStream(callAgain(options)), doGenerate: (options) => scripted.doGenerate(callAgain(options)) };
}

async function countedTurn(store: EventStore, databaseUrl: string, agent: DeepAgent, content: string): Promise<TurnWrites> {
  const sessionId = randomUUID();
  const read = startCounting();
  const run = await startRun({ agent, store, sessionId, ownerId: 'bench', source: 'agui', messages: [{ id: randomUUID(), role: 'user', content }] });
  for await (const part of run.parts) void part;
  await run.done;
  const sql = read();
  const log = await readSessionLog(databaseUrl, sessionId);
  return { ...sql, eventRows: log.length, modelSteps: log.filter(({ event }) => event.type === 'assistant_step').length };
}

export async function measureWritesPerTurn(database: BenchDatabase): Promise<WritesPerTurn> {
  installSqlCounter();
  const support = findAgent('helpdesk')!;
  const store = createPrismaStore(database.url);
  try {
    // The connection is opened (and SQLite's pragmas set) before anything is counted.
    await countedTurn(store, database.url, support, 'reply with 5 tokens');
    return {
      text200: await countedTurn(store, database.url, support, 'reply with 200 tokens'),
      text2000: await countedTurn(store, database.url, support, 'reply with 2000 tokens'),
      toolTurn5Steps: await countedTurn(store, database.url, { ...support, model: fiveStepModel() }, 'look up order po_42'),
    };
  } finally {
    await store.close();
  }
}
