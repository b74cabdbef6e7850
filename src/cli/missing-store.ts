/**
 * The NOT_FOUND of a read against a store that does not exist, in the CLI's terms: how the store
 * was chosen (`--db`, `ENGRAM_DB`, discovery) and the command lines that create it.
 */
import { DB_FILE, STORE_DIR, type StoreLocation, type StoreSource } from '../config/discover-store.js';
import { EngramError } from '../errors.js';

const NAMED_BY: Record<StoreSource, string> = {
  flag: '--db',
  env: 'ENGRAM_DB',
  discovered: 'discovery',
  user: 'the user store',
};

/**
 * The NOT_FOUND of a read against a store that does not exist: names the path, how it was chosen,
 * and how to create it.
 *
 * @example
 * missingStoreError({ path: '/tmp/nope.db', source: 'flag', exists: false }).message;
 * // 'No store at /tmp/nope.db (--db)'
 */
export function missingStoreError(location: StoreLocation): EngramError {
  const { path, source } = location;
  const details = { path, source };
  if (source === 'user' || source === 'discovered') {
    return new EngramError('NOT_FOUND', `No store: no ${STORE_DIR}/${DB_FILE} here or above, and no user store ${path}`, {
      hint: `Create one: \`engram init\` (a project store in ./${STORE_DIR}/), or any write such as \`engram put\` (creates ${path}).`,
      details,
    });
  }
  return new EngramError('NOT_FOUND', `No store at ${path} (${NAMED_BY[source]})`, {
    hint: `Check the path, or create the store: \`engram init\` with the same ${NAMED_BY[source]}, or any write that stores something (\`engram put\`, \`engram import\`, …).`,
    details,
  });
}
