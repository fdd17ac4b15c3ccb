// MCP in (docs/mcp.md): what an agent's MCP servers add to its definition — names, policies by
// full name and by server wildcard — and an unreachable server leaving the agent's own tools be.
import { fileURLToPath } from 'node:url';
import { tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../authoring';
import { approvalOptions } from '../decisions/approval-policy';
import { loadMcpTools } from './mcp-tools';
import { agentTools, executeTool, toolKind } from './tool-set';
import type { InputAnswer } from './request-input';
import { idempotencyKey } from './handler-context';

/** A small MCP server run as a command (tests/support/mcp-stdio-server.mjs). */
const STDIO_SERVER_FILE = fileURLToPath(new URL('../../../tests/support/mcp-stdio-server.mjs', import.meta.url));

const ping = tool({ inputSchema: z.object({}), execute: async () => 'pong' });
// Nothing listens on port 9 (discard) here: the connection is refused at once.
const UNREACHABLE = 'http://127.0.0.1:9/mcp';

afterEach(() => vi.restoreAllMocks());

describe('MCP servers of an agent', () => {
  it("policies apply by a tool's full name, else by its server's wildcard; other names keep their own", () => {
    const agent = defineDeepAgent({
      name: 'mcp-policies',
      model: 'openai/gpt-4o-mini',
      tools: { ping },
      mcpServers: [{ name: 'docs', url: UNREACHABLE }],
      toolApproval: { 'docs_*': 'user-approval', docs_search: 'approved' },
    });
    expect(approvalOptions(agent, 'docs_search').policy).toBe('approved');
    expect(approvalOptions(agent, 'docs_delete_page').policy).toBe('user-approval');
    expect(approvalOptions(agent, 'ping').policy).toBe('approved');
    // A name under no server of the agent is not covered by any wildcard.
    expect(approvalOptions(agent, 'wiki_delete').policy).toBe('approved');
  });

  it('defineDeepAgent refuses a policy for a server the agent does not have, and a server name that would blur the prefix', () => {
    const base = { name: 'mcp-bad', model: 'openai/gpt-4o-mini' } as const;
    expect(() => defineDeepAgent({ ...base, mcpServers: [{ name: 'docs', url: UNREACHABLE }], toolApproval: { 'wiki_*': 'denied' } })).toThrow(
      'Agent "mcp-bad": toolApproval names "wiki_*", which is not one of its tools',
    );
    expect(() => defineDeepAgent({ ...base, mcpServers: [{ name: 'my_docs', url: UNREACHABLE }] })).toThrow('the MCP server name "my_docs" must be');
    expect(() =>
      defineDeepAgent({
        ...base,
        mcpServers: [
          { name: 'docs', url: UNREACHABLE },
          { name: 'docs', command: 'docs-mcp' },
        ],
      }),
    ).toThrow('two MCP servers are named "docs"');
  });

  it('an unreachable server is logged and lists nothing; the agent keeps its own tools', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const agent = defineDeepAgent({ name: 'mcp-down', model: 'openai/gpt-4o-mini', tools: { ping }, mcpServers: [{ name: 'docs', url: UNREACHABLE }] });
    await loadMcpTools(agent);
    expect(Object.keys(agentTools(agent)).sort()).toEqual(['ping', 'write_todos']);
    expect(toolKind(agent, [], 'docs_search')).toBe('unknown');
    expect(String(logged.mock.calls[0]?.[0])).toContain('MCP server "docs" (http://127.0.0.1:9/mcp) could not be listed; its tools are not offered');
  });
});

describe('an MCP server over stdio', () => {
  const agent = defineDeepAgent({
    name: 'mcp-stdio',
    model: 'openai/gpt-4o-mini',
    mcpServers: [{ name: 'local', command: process.execPath, args: [STDIO_SERVER_FILE] }],
  });

  /** One call of an MCP tool as the runtime makes it, with the answers recorded so far. */
  const call = (name: string, input: object, inputAnswers: InputAnswer[] = []) =>
    executeTool({
      definition: agentTools(agent)[name]!,
      call: { id: 'call_1', name, input },
      context: {
        attempt: 1,
        session: { id: 's1', agent: agent.name, ownerId: 'o1', durable: true, schedule: () => Promise.reject(new Error('no timers here')) },
        signal: new AbortController().signal,
      },
      state: {},
      history: [],
      inputAnswers,
      timeoutMs: 20_000,
    });

  it('lists its tools, runs one, and bridges its question: paused first, then answered or declined on the call made again', async () => {
    await loadMcpTools(agent);
    expect(Object.keys(agentTools(agent)).sort()).toEqual(['local_echo', 'local_pick_colour', 'write_todos']);
    // The call's idempotency key goes with it, the same on every attempt: a server keeps a side effect once by it.
    expect(await call('local_echo', { text: 'hi' })).toMatchObject({ ok: true, output: `echo: hi (key ${idempotencyKey('s1', 'call_1')})` });
    expect(await call('local_pick_colour', {})).toMatchObject({
      ok: false,
      inputRequired: { message: 'Which colour?', responseSchema: { required: ['colour'] }, declineToTool: true },
    });
    expect(await call('local_pick_colour', {}, [{ status: 'answered', value: { colour: 'blue' } }])).toMatchObject({ ok: true, output: 'picked blue' });
    expect(await call('local_pick_colour', {}, [{ status: 'declined' }])).toMatchObject({ ok: true, output: 'no colour: decline' });
  }, 30_000);
});
