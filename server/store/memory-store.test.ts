// The store's conformance suite on the in-memory store: every store the suite opens is over one memory
// database, as the stores of two server processes are over one database.
import { createMemoryDatabase } from './memory-database';
import { createMemoryStore } from './memory-store';
import { describeEventStoreConformance } from './store.conformance';

const database = createMemoryDatabase();
describeEventStoreConformance('memory', async () => createMemoryStore(database));
