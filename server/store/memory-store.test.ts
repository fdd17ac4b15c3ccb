// The store contract on the in-memory store: every store the contract opens is over one memory
// database, as the stores of two server processes are over one database.
import { createMemoryDatabase } from './memory-database';
import { createMemoryStore } from './memory-store';
import { describeEventStoreContract } from './store.contract';

const database = createMemoryDatabase();
describeEventStoreContract('memory', async () => createMemoryStore(database));
