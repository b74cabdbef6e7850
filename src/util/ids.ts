/**
 * Item ids: `MEM-` followed by 12 lowercase hex digits (48 random bits).
 *
 * The bits come from `Math.random`, which V8 seeds from the operating system's entropy in each
 * process (and worker): an id must be unique, not secret (it grants nothing), and 48 uniform bits
 * are as unlikely to collide whatever their source. `node:crypto` would cost a `put` 3-5 ms of
 * start-up (hash.ts).
 */
export const ITEM_ID_PATTERN = /^MEM-[0-9a-f]{12}$/;

/** 2^48: an id's range. */
const RANGE = 2 ** 48;

/** A fresh random item id, e.g. `MEM-3f9a0c12be47`. */
export function newItemId(): string {
  // Math.random carries 52 random bits: the top 48 are uniform.
  return `MEM-${Math.floor(Math.random() * RANGE).toString(16).padStart(12, '0')}`;
}
