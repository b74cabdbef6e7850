/**
 * The storage contract, async and split by concern (`contract/`): everything above `store/`
 * imports it from here, and `src/index.ts` exports it so a library user can bring a store.
 * `sqlite/` is the embedded implementation; `test/store-contract.ts` is the suite a backend passes.
 */
export type * from './contract/index.js';
