export { forkPrefix } from './fork-prefix';
export type { ForkPoint, ForkPrefix } from './fork-prefix';
export { forkThread } from './fork-thread';
export type { ForkedThread, ForkRequest } from './fork-thread';
