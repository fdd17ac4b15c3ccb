// Item 6: the server's resident memory (VmRSS of the serving process, bench/lib/servers.ts).
// Turns: RSS after a warm-up, then after N sequential turns, each on a new thread. Sessions
// touched: N sessions exist (copies of a real one, bench/lib/clone-sessions.ts) and each is
// read once through the hydration JSON, which folds its view into the server's view cache
// (server/runtime/session/view-cache.ts); RSS before, halfway and after. The cache is "bounded" when the
// second half of the touches grows RSS by at most 5 % (both halves go past the cache's capacity
// in full mode; in quick mode the first half fills it).
import { randomUUID } from 'node:crypto';
import { completedRun, hydrate, pingServer, runInput } from '../lib/agui-client';
import { cloneSessions } from '../lib/clone-sessions';
import { counts } from '../lib/mode';
import { serverMemory, type BenchDatabase } from '../lib/servers';
import { round } from '../lib/stats';

export interface Memory {
  process: string;
  turns: { count: number; warmupTurns: number; rssBeforeMB: number; rssAfterMB: number; growthPercent: number };
  sessionsTouched: { count: number; rssBeforeMB: number; rssHalfwayMB: number; rssAfterMB: number; secondHalfGrowthPercent: number; bounded: boolean };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

async function rssAfterSettling(pid: number): Promise<number> {
  await settle();
  return serverMemory(pid).rssMB;
}

async function touch(baseUrl: string, ids: string[]): Promise<void> {
  const PARALLEL = 4;
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < ids.length) await hydrate(baseUrl, ids[next++]!);
    }),
  );
}

export async function measureMemory(baseUrl: string, pid: number, database: BenchDatabase): Promise<Memory> {
  for (let i = 0; i < counts.memoryWarmupTurns; i++) await completedRun(baseUrl, runInput(randomUUID(), 'reply with 20 tokens'));
  const turnsBefore = await rssAfterSettling(pid);
  await pingServer(baseUrl);
  for (let i = 0; i < counts.memoryTurns; i++) await completedRun(baseUrl, runInput(randomUUID(), 'reply with 20 tokens'));
  const turnsAfter = await rssAfterSettling(pid);

  const template = randomUUID();
  await completedRun(baseUrl, runInput(template, 'reply with 20 tokens'));
  const prefix = `bench-${randomUUID().slice(0, 8)}-`;
  await cloneSessions(database, template, prefix, counts.sessionsTouched);
  const ids = Array.from({ length: counts.sessionsTouched }, (_, i) => `${prefix}${i + 1}`);
  const half = ids.length / 2;
  const touchBefore = await rssAfterSettling(pid);
  await pingServer(baseUrl);
  await touch(baseUrl, ids.slice(0, half));
  const touchHalfway = await rssAfterSettling(pid);
  await pingServer(baseUrl);
  await touch(baseUrl, ids.slice(half));
  const touchAfter = await rssAfterSettling(pid);
  const secondHalf = ((touchAfter - touchHalfway) / touchHalfway) * 100;
  return {
    process: serverMemory(pid).name,
    turns: {
      count: counts.memoryTurns,
      warmupTurns: counts.memoryWarmupTurns,
      rssBeforeMB: round(turnsBefore, 1),
      rssAfterMB: round(turnsAfter, 1),
      growthPercent: round(((turnsAfter - turnsBefore) / turnsBefore) * 100, 1),
    },
    sessionsTouched: {
      count: counts.sessionsTouched,
      rssBeforeMB: round(touchBefore, 1),
      rssHalfwayMB: round(touchHalfway, 1),
      rssAfterMB: round(touchAfter, 1),
      secondHalfGrowthPercent: round(secondHalf, 1),
      bounded: secondHalf <= 5,
    },
  };
}
