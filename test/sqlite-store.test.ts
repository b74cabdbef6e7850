import { join } from 'node:path';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { tempDir } from './helpers.js';
import { runStoreContract } from './store-contract.js';

runStoreContract('sqlite :memory:', () => createSqliteStore(':memory:'));
runStoreContract('sqlite file', (t) => createSqliteStore(join(tempDir(t), 'memory.db')));
