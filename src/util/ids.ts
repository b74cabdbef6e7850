/** Item ids: `MEM-` followed by 12 lowercase hex digits (48 random bits). */
import { nodeCrypto } from './node-crypto.js';

export const ITEM_ID_PATTERN = /^MEM-[0-9a-f]{12}$/;

/** Random bytes drawn ahead, 6 per id: one call to the system's generator per 1,024 ids, not per id. */
const pool = Buffer.alloc(6 * 1024);
let used = pool.length;

/** A fresh random item id, e.g. `MEM-3f9a0c12be47`. */
export function newItemId(): string {
  if (used === pool.length) {
    nodeCrypto().randomFillSync(pool);
    used = 0;
  }
  used += 6;
  return `MEM-${pool.toString('hex', used - 6, used)}`;
}
