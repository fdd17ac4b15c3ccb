// `npm run agent:new -- <name>` (scripts/agent-new.mjs), run as a child process against a copy of
// the app's registry (--root): the files it writes, what it refuses, and the agent it writes
// working offline through the runtime — its suggestion pauses on an approval, approving runs the tool.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeepAgent } from '../server/authoring';
import type { ChatMessage } from '../server/store/messages';
import { decideInterrupt, startRun, type RunPart } from '../server/runtime';
import { createMemoryStore } from '../server/store/memory-store';

const root = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = path.join(root, 'scripts', 'agent-new.mjs');
const REGISTRY = readFileSync(path.join(root, 'server', 'agents', 'index.ts'), 'utf8');

/**
 * A copy of the app's layout the script writes into: under the app's own folder (.data/), so the
 * written agent resolves zod from node_modules, with server/agent-kit.ts linked to the real one.
 */
function appCopy(): string {
  const dir = mkdtempSync(path.join(root, '.data', 'agent-new-'));
  mkdirSync(path.join(dir, 'server', 'agents'), { recursive: true });
  writeFileSync(path.join(dir, 'server', 'agents', 'index.ts'), REGISTRY);
  symlinkSync(path.join(root, 'server', 'agent-kit.ts'), path.join(dir, 'server', 'agent-kit.ts'));
  copies.push(dir);
  return dir;
}
const copies: string[] = [];

function agentNew(dir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, '--root', dir, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, 'server', 'agents', file), 'utf8');

beforeAll(() => {
  mkdirSync(path.join(root, '.data'), { recursive: true });
  process.env.STACKBONE_MODEL = 'scripted';
});
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('agent:new', () => {
  it('writes the agent, lists it on the home page, and says how to open it', async () => {
    const dir = appCopy();
    const { code, output } = await agentNew(dir, 'kit-help-desk');
    expect(code).toBe(0);
    expect(output).toContain('Wrote server/agents/kit-help-desk.ts');
    expect(output).toContain('/agents/kit-help-desk');
    const registry = read(dir, 'index.ts');
    expect(registry).toContain("import kitHelpDesk from './kit-help-desk';\n");
    // Listed with the agents everyone sees, before any fixture the tests add.
    const listed = registry.slice(registry.indexOf('export const agents'));
    expect(listed.indexOf('  kitHelpDesk,')).toBeGreaterThan(0);
    expect(listed.indexOf('  kitHelpDesk,')).toBeLessThan(listed.search(/\n {2}(\/\/|\.\.\.|\];)/));
    const agent = read(dir, 'kit-help-desk.ts');
    expect([...agent.matchAll(/^import .* from '(.+)';$/gm)].map((m) => m[1])).toEqual(['zod', '../agent-kit']);
    expect(agent).toContain("name: 'kit-help-desk'");
  });

  it('refuses an agent that exists, and a second run changes nothing', async () => {
    const dir = appCopy();
    expect((await agentNew(dir, 'kit-billing')).code).toBe(0);
    const [agent, registry] = [read(dir, 'kit-billing.ts'), read(dir, 'index.ts')];
    const again = await agentNew(dir, 'kit-billing');
    expect(again).toEqual({
      code: 1,
      output: expect.stringContaining('The agent "kit-billing" exists already (server/agents/kit-billing.ts). Nothing changed.'),
    });
    expect([read(dir, 'kit-billing.ts'), read(dir, 'index.ts')]).toEqual([agent, registry]);
    // An example's agent (examples/<example>/agents/) has its name too: the copy's own example.
    mkdirSync(path.join(dir, 'examples', 'kit-example', 'agents'), { recursive: true });
    writeFileSync(path.join(dir, 'examples', 'kit-example', 'agents', 'kit-desk.ts'), '// an example agent\n');
    expect((await agentNew(dir, 'kit-desk')).output).toContain('The agent "kit-desk" exists already (examples/kit-example/agents/kit-desk.ts)');
    expect(read(dir, 'index.ts')).toBe(registry);
  }, 30_000);

  it('refuses a bad name, writing nothing', async () => {
    const dir = appCopy();
    for (const name of ['Billing', 'bill_ing', '-billing', 'billing-', '9lives', 'a'.repeat(41)]) {
      const { code, output } = await agentNew(dir, name);
      expect([code, output]).toEqual([1, expect.stringContaining(`"${name}" is not an agent name`)]);
    }
    expect((await agentNew(dir)).output).toContain('Usage: npm run agent:new -- <name>');
    expect(read(dir, 'index.ts')).toBe(REGISTRY);
  }, 60_000);
});

describe('the agent it writes, offline', () => {
  let agent: DeepAgent;
  beforeAll(async () => {
    const dir = appCopy();
    expect((await agentNew(dir, 'kit-errands')).code).toBe(0);
    agent = ((await import(path.join(dir, 'server', 'agents', 'kit-errands.ts'))) as { default: DeepAgent }).default;
  });

  let counter = 0;
  const store = createMemoryStore();
  const message = (content: string): ChatMessage => ({ id: `m${++counter}`, role: 'user', content });
  async function drain(run: { parts: AsyncIterable<RunPart>; done: Promise<void> }): Promise<RunPart[]> {
    const parts: RunPart[] = [];
    for await (const part of run.parts) parts.push(part);
    await run.done;
    return parts;
  }
  const say = async (content: string) => drain(await startRun({ agent, store, sessionId: 's1', ownerId: 'o1', source: 'agui', messages: [message(content)] }));
  const toolResults = (parts: RunPart[]) => parts.flatMap((part) => (part.type === 'tool-result' ? [JSON.parse(part.content) as { summary: string }] : []));

  it('its first suggestion pauses on the approval; approving runs the tool once; listing shows the task', async () => {
    const paused = (await say(agent.suggestions[0]!)).at(-1)!;
    expect(paused.type).toBe('run-finished');
    const [interrupt] = paused.type === 'run-finished' ? (paused.interrupts ?? []) : [];
    expect(interrupt).toMatchObject({ toolName: 'addTask', input: { title: 'send the March invoices' }, message: 'Add the task "send the March invoices"' });

    const { continuation } = await decideInterrupt({
      store,
      findAgent: () => agent,
      interruptId: interrupt!.id,
      request: { status: 'approved' },
      by: { source: 'hitl', ownerId: 'o1' },
    });
    expect(continuation).toBeDefined();
    expect(toolResults(await drain(continuation!)).map((result) => result.summary)).toEqual(['Added task T1: send the March invoices.']);

    expect(toolResults(await say(agent.suggestions[1]!)).map((result) => result.summary)).toEqual(['1 task: T1 send the March invoices.']);
  });
});
