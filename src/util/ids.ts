/**
 * Item ids: `MEM-` followed by 12 lowercase hex digits (48 random bits).
 *
 * The bits come from `Math.random`, which V8 seeds from the operating system's entropy in each
 * process (and worker): an id must be unique, not secret (it grants nothing), and 48 uniform bits
 * are as unlikely to collide whatever their source. `node:crypto` would cost a `put` 3-5 ms of
 * start-up (hash.ts). A node started with a fixed seed (`--random-seed`, `--predictable`) draws
 * the same numbers in every process: its ids come from `node:crypto`.
 */
import { nodeCrypto } from './node-crypto.js';

export const ITEM_ID_PATTERN = /^MEM-[0-9a-f]{12}$/;

/** 2^48: an id's range. */
const RANGE = 2 ** 48;

/** Whether V8's generator was given a fixed seed on node's command line. */
const SEEDED = process.execArgv.some((arg) => /^--(?:random[-_]seed|predictable)\b/.test(arg));

/** A fresh random item id, e.g. `MEM-3f9a0c12be47`. */
export function newItemId(): string {
  if (SEEDED) return `MEM-${nodeCrypto().randomBytes(6).toString('hex')}`;
  // Math.random carries 52 random bits: the top 48 are uniform.
  return `MEM-${Math.floor(Math.random() * RANGE).toString(16).padStart(12, '0')}`;
}
