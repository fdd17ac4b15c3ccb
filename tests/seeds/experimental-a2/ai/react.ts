// `experimental-a2/ai/react` as the seeds import it, in this app's names (docs/seed-names.md).
export { useAgent } from '../../../../components/hooks/useAgent';
