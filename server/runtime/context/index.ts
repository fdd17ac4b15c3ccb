// The context room's face: what a model step is sent of a long conversation (docs/models.md, "Long threads").
export { planCompaction, tokensAfter, type CompactionPlan } from './compaction-plan';
export { conversationSize, estimateTokens } from './context-size';
export { cutPoint } from './cut-point';
export { sentMessages, trimmedResult } from './sent-messages';
export { transcriptOf } from './transcript';
