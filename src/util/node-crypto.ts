/**
 * `node:crypto`, loaded on first use: loading it costs a few milliseconds of start-up (it loads
 * node's streams) that a command reading the store (list, search) never needs, and that a `put`
 * avoids (hash.ts, ids.ts).
 */
import type * as Crypto from 'node:crypto';
import { createRequire } from 'node:module';

let crypto: typeof Crypto | undefined;

/** The `node:crypto` module. */
export function nodeCrypto(): typeof Crypto {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  return crypto;
}

/** The `node:crypto` module if this process loaded it already, else undefined. */
export function loadedNodeCrypto(): typeof Crypto | undefined {
  return crypto;
}
