// `experimental-a2/ai` as the seeds import it, in this app's names (docs/seed-names.md).
export { agentContract, handlerContext, inputs } from '../../../../server/runtime';
