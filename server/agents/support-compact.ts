// A fixture for the long-thread tests (listed only with STACKBONE_FIXTURE_AGENTS=1): the support
// agent with a context budget small enough that a few turns outgrow it, so its older turns are
// summarised (docs/models.md, "Long threads"); tests/integration/real-providers.test.ts drives it.
import { defineDeepAgent } from '../agent-kit';
import support from './support';

export default defineDeepAgent({ ...support, name: 'support-compact', displayName: 'Support, small context', contextBudget: 200 });
