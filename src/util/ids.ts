/** Item ids: `MEM-` followed by 12 lowercase hex digits (48 random bits). */
import { randomBytes } from 'node:crypto';

export const ITEM_ID_PATTERN = /^MEM-[0-9a-f]{12}$/;

/** A fresh random item id, e.g. `MEM-3f9a0c12be47`. */
export function newItemId(): string {
  return `MEM-${randomBytes(6).toString('hex')}`;
}
