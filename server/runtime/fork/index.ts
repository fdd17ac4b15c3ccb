export { forkParent } from './fork-parent';
export { forkThread } from './fork-thread';
export { replyVersions } from './reply-versions';
export { undoDroppedEffect, undoOffers } from './undo-effect';
export type { UndoOffer } from './undo-effect';
