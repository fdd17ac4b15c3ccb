// The in-memory store keeps the stop and watch promises too (in-process: there is no other).
import { createMemoryStore } from './memory-store';
import { describeStopAndWatchContract } from './store.contract';

describeStopAndWatchContract('memory', async () => createMemoryStore(), { sameDatabase: false });
