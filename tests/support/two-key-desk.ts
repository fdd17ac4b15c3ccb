// A desk for the owner-scoped routes' tests (the decision export, Studio's approval metrics):
// two keys configured (alice, bob), a memory store as the process's store, and an agent whose
// one tool waits for a key holder. `ticket()` runs a real turn that pauses, and decides it as
// the out-of-band API does when asked to.
import { tool } from 'ai';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { defineDeepAgent } from '../../server/authoring';
import { keyOwner } from '../../server/credentials/open-dev-mode';
import { createScriptedModel } from '../../server/models/scripted';
import { decideInterrupt, loadView, pendingInterrupts, scopedSessionId, startRun, userMessage } from '../../server/runtime';
import { createMemoryStore } from '../../server/store/memory-store';

export const ALICE_KEY = 'sk-alice-1';
export const BOB_KEY = 'sk-bob-2';
export const alice = keyOwner(ALICE_KEY);
export const bob = keyOwner(BOB_KEY);
export const BROWSER = 'browser:4f1c0d2e-0000-4000-8000-000000000000';

const close = tool({ inputSchema: z.object({ ticketId: z.string() }), execute: async ({ ticketId }) => ({ closed: ticketId }) });
const agent = defineDeepAgent({
  name: 'desk',
  model: createScriptedModel(),
  instructions: 'x',
  tools: { close },
  toolApproval: { close: { policy: 'user-approval', approvers: 'key-holders', allowEdit: true } },
});

export interface DeskDecision {
  /** The deciding key holder's owner id. */
  by: string;
  request: { status: 'approved' | 'denied'; editedArgs?: unknown };
}

/** Installs the desk for the file's tests (the keys, the secret, the store) and takes it down after. */
export function twoKeyDesk(): { ticket: (ownerId: string, ticketId: string, decided?: DeskDecision) => Promise<void> } {
  const store = createMemoryStore();
  const saved = { STACKBONE_API_KEYS: process.env.STACKBONE_API_KEYS, STACKBONE_SECRET: process.env.STACKBONE_SECRET };
  beforeAll(() => {
    process.env.STACKBONE_MODEL = 'scripted';
    process.env.STACKBONE_API_KEYS = `alice=${ALICE_KEY},bob=${BOB_KEY}`;
    process.env.STACKBONE_SECRET = 'a-test-secret-that-is-long-enough-000000';
    (globalThis as { __stackboneStore?: unknown }).__stackboneStore = store;
  });
  afterAll(() => {
    (globalThis as { __stackboneStore?: unknown }).__stackboneStore = undefined;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return {
    /** A session of `ownerId` whose one call to close `ticketId` waits; decided when `decided` says how. */
    async ticket(ownerId, ticketId, decided) {
      const sessionId = scopedSessionId(ownerId, ticketId);
      await (
        await startRun({ agent, store, sessionId, ownerId, source: 'agui', messages: [userMessage(`call close {"ticketId":"${ticketId}"}`)] })
      ).done;
      if (!decided) return;
      const [interrupt] = pendingInterrupts(await loadView(store, sessionId, {}));
      const decision = await decideInterrupt({
        store,
        findAgent: () => agent,
        interruptId: interrupt!.id,
        request: decided.request,
        by: { source: 'hitl', ownerId: decided.by, credential: 'key' },
      });
      await decision.continuation?.done;
    },
  };
}
