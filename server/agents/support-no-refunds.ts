// A fixture variant of the support agent (listed only with STACKBONE_FIXTURE_AGENTS=1): the same
// code without its refundOrder tool. A replay against it shows the removed tool as a diff: the
// refund call is gone and the decision recorded on it no longer answers anything (docs/replay.md).
import { defineDeepAgent } from '../agent-kit';
import { supportConfig } from './support';

const { refundOrder: _removed, ...tools } = supportConfig.tools;
const { refundOrder: _policy, ...toolApproval } = supportConfig.toolApproval;

export default defineDeepAgent({
  ...supportConfig,
  name: 'support-no-refunds',
  displayName: 'Support (no refunds)',
  tools,
  toolApproval,
  offline: { phrases: supportConfig.offline.phrases.filter((phrase) => phrase.call !== 'refundOrder') },
  notify: {},
  toolLanes: {},
});
