// Durability across a hard crash: the server is killed with SIGKILL between two runs.
import { randomUUID } from 'node:crypto';
import { EventType, type MessagesSnapshotEvent } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { newHttpAgent, runHttpAgent } from '../support/agui';
import { backends } from '../support/backends';
import { startServer } from '../support/server';
import { fixtureEnv } from './global-setup';

const PORTS = { sqlite: 3211, postgres: 3212 } as const;

for (const { kind, databaseUrl, ledgerFile } of backends()) {
  describe(`after SIGKILL on ${kind}`, () => {
    it('a reopened thread still starts with a MESSAGES_SNAPSHOT of the first exchange', async () => {
      const threadId = randomUUID();
      const first = await startServer({ port: PORTS[kind], databaseUrl, env: fixtureEnv(ledgerFile) });
      const agent = newHttpAgent(first.url, 'support', threadId);
      try {
        await runHttpAgent(agent, 'look up order ord_42');
      } finally {
        await first.kill('SIGKILL');
      }
      const exchange = agent.messages.map((message) => ({ id: message.id, role: message.role }));
      expect(exchange.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

      const second = await startServer({ port: PORTS[kind], databaseUrl, env: fixtureEnv(ledgerFile) });
      try {
        const fresh = newHttpAgent(second.url, 'support', threadId);
        const { events, logged } = await runHttpAgent(fresh, 'thanks');
        expect(logged).toEqual([]);
        const snapshot = events.find((event) => event.type === EventType.MESSAGES_SNAPSHOT) as MessagesSnapshotEvent;
        expect(snapshot.messages.slice(0, 4).map((message) => ({ id: message.id, role: message.role }))).toEqual(exchange);
        expect(fresh.messages.at(-1)!.role).toBe('assistant');
      } finally {
        await second.kill();
      }
    });
  });
}
