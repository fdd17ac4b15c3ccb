// The context room's face: what a model step is sent of a long conversation (docs/models.md, "Long threads").
export { planCompaction, tokensAfter } from './compaction-plan';
export { sentMessages, trimmedResult } from './sent-messages';
export { transcriptOf } from './transcript';
