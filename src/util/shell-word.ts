/** Words for a POSIX shell (sh, bash, zsh), for lines a user pastes or `eval`s. */

/**
 * A word as is when it holds only characters no shell reads specially, else single-quoted (a
 * single quote inside becomes `'\''`), so spaces, quotes, `$`, backticks and newlines stay literal.
 *
 * @example
 * shellWord('/tmp/a b/memory.db'); // "'/tmp/a b/memory.db'"
 */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
