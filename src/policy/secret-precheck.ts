/**
 * Whether a short text can hold a secret, told without loading the secret rules. Masking a
 * recorded recall query (`redactSecrets`) loads the secret rules, the decoders and the
 * deobfuscation, some 3 ms of a `recall`, and most queries are a few plain words.
 *
 * A text of printable ASCII and tabs with no quote, `&`, `%`, `+` or backslash and no run of 16
 * base64 characters has no token view but itself: no normal form (NFKC, look-alikes and invisible
 * characters lie outside ASCII), no joined lines (quotes, line breaks), nothing to decode (base64
 * runs of 16 or more, `\x` escapes, `%` escapes and `+`), no entity (`&`), tag character or bidi
 * control (decode.ts, deobfuscate.ts). When the secret rules' screen, read from its generated
 * tables, also finds no rule all of whose literals the text holds, no secret rule can match it,
 * and `redactSecrets` returns it as it is (src/policy/secret-precheck.test.ts checks that on
 * random texts). Only the bundle relies on the tables without the rules, its build having checked
 * that they fit (screen.ts).
 */
import { meetsAnyRule, tablesCheckedAtBuild } from './screen.js';
import { SECRET_SCREEN_LITERALS } from './secret-screen-literals.generated.js';

/** A character that may give a text another token view. */
const OTHER_VIEWS = /[^\t\x20-\x7e]|["'`&%+\\]/;
/** A run of base64 characters long enough to be decoded. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16}/;

/** True when no secret rule can match `text` (see above); false when one may. */
export function holdsNoSecret(text: string): boolean {
  if (OTHER_VIEWS.test(text) || BASE64_RUN.test(text)) return false;
  return meetsAnyRule(SECRET_SCREEN_LITERALS, text, 'token') === false;
}

/**
 * `text` with every secret masked, as `redactSecrets` gives it (secret-spans.ts), which is loaded
 * only for a text that may hold one.
 *
 * @example
 * await recordedText('which port does staging use'); // returned as it is, no rule loaded
 */
export async function recordedText(text: string): Promise<string> {
  if (tablesCheckedAtBuild() && holdsNoSecret(text)) return text;
  return (await import('./secret-spans.js')).redactSecrets(text);
}
