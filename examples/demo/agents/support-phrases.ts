// The support agent's offline phrases (README, "Add an agent"), one per tool, by the tool's name:
// support.ts declares them all, and an agent with some of the same tools may take those it has.
import type { OfflinePhrase } from '../../../server/agent-kit';

/** An id as people write them: ord_42, T-7. */
const ID = String.raw`([A-Za-z0-9][\w-]*)`;

export const supportPhrases = {
  lookupOrder: {
    call: 'lookupOrder',
    example: 'look up order ord_42',
    pattern: new RegExp(String.raw`^(?:look\s*up|find|track|check|where\s+is|where's)\s+(?:my\s+|the\s+)?order\s+${ID}$`, 'i'),
    input: (m) => ({ orderId: m[1] }),
  },
  refundOrder: {
    call: 'refundOrder',
    example: 'refund order ord_42 for 19.99',
    pattern: new RegExp(String.raw`^refund\s+(?:order\s+)?${ID}\s+(?:for\s+)?\$?(\d+(?:\.\d+)?)$`, 'i'),
    input: (m) => ({ orderId: m[1], amount: Number(m[2]) }),
  },
  closeTicket: {
    call: 'closeTicket',
    example: 'close ticket T-7',
    pattern: new RegExp(String.raw`^close\s+ticket\s+${ID}$`, 'i'),
    input: (m) => ({ ticketId: m[1] }),
  },
  remindMe: {
    call: 'remindMe',
    example: 'remind me in 10 seconds to check ord_42',
    pattern: /^remind\s+me\s+in\s+(\d+)\s+(seconds?|minutes?)\s+to\s+(.+)$/i,
    input: (m) => ({ text: m[3], inSeconds: Number(m[1]) * (/^m/i.test(m[2]!) ? 60 : 1) }),
  },
} satisfies Record<string, OfflinePhrase>;
