export { forkThread } from './fork-thread';
