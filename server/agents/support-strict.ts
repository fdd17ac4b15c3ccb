// A fixture variant of the support agent (listed only with STACKBONE_FIXTURE_AGENTS=1): the same
// code, except that looking an order up, which support runs without asking, needs a person's
// approval. A replay against it shows the policy change as a diff (docs/replay.md, "Against another agent").
import { defineDeepAgent } from '../agent-kit';
import { supportConfig } from './support';

export default defineDeepAgent({
  ...supportConfig,
  name: 'support-strict',
  displayName: 'Support (strict)',
  toolApproval: { ...supportConfig.toolApproval, lookupOrder: { policy: 'user-approval', describe: (input) => `Look up order ${input.orderId}` } },
});
