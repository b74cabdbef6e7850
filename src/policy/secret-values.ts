/**
 * How the secret rules judge a matched value: placeholders (`XXXX`, `<token>`, `${TOKEN}`…) and
 * published documentation examples never count, and a free-form value counts only when it looks
 * chosen or generated (entropy, character classes) rather than like a word, code or a reference.
 * The rule tables are in `secrets.ts` and `secret-providers.ts`.
 */
const PLACEHOLDER
  = /^(?:\*+|x+|\.+|-+|_+|#+|\?+|0+|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\$\{?\w+\}?|%\w+%|\$\(.*\)|(?:my|your|the|some|new|old|example|sample|dummy|fake|test|default)?[_-]?(?:pass(?:word)?|passwd|pwd|secret|token|api[_-]?key|key|changeme|change[_-]?me|redacted|placeholder|value|xxx+|none|null|nil|undefined|empty|example|sample|dummy|hunter2|letmein|admin|root|user|guest|test|string|str|env|required|optional)s?\d?)$/i;

/** A value that stands for a secret without being one (`XXXX`, `<token>`, `${TOKEN}`, `changeme`…). */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value.trim());
}

/** Published example credentials, masked or templated values, and Stripe test-mode keys. */
const DOCUMENTATION_VALUE = new RegExp(
  [
    'EXAMPLE', // AWS's documented AKIA…EXAMPLE and …EXAMPLEKEY values
    '^(?:sk|pk|rk)_test_', // Stripe test mode (the issue lists these as accepted)
    'x{4,}', '\\*{3,}', '•{3,}', '0{10,}', '(?:0123456789|1234567890){1}', 'abcdef(?:ghij|1234)',
    'your[-_ ]?(?:[a-z]+[-_ ]?){0,3}(?:here|key|token|secret|password)', '<[^>]{1,40}>', '\\$\\{[^}]{1,60}\\}',
    '\\{\\{[^}]{1,60}\\}\\}', '\\bREPLACE[_-]?ME\\b', '\\bCHANGE[_-]?ME\\b', 'placeholder', 'redacted', 'not[-_]a[-_]real', '^\\$[A-Z_]{2,}$',
  ].join('|'),
  'i',
);

/** A documentation example or a placeholder rather than a real credential. */
export function isDocumentationValue(value: string): boolean {
  return isPlaceholder(value) || DOCUMENTATION_VALUE.test(value) || SPELLED_OUT.test(value);
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(value)).length;
}

/**
 * A free-form value (after a credential word, a password flag, a header) that looks chosen or
 * generated rather than like a word, an identifier, a reference or a placeholder.
 */
export function looksLikeCredential(raw: string, minLength = 8): boolean {
  const value = raw.replace(/[.,;:!?)\]}*_~]+$/, ''); // trailing punctuation and Markdown emphasis
  if (value.length < minLength || value.length > 512 || isDocumentationValue(value)) return false;
  // References and code: variables, interpolation, calls, paths, URLs, member access.
  if (/^[$%<{(/~&?=:;,|@#.\\[]|\$\{|\$\(|:\/\/|[()[\]{}]/.test(value)) return false;
  // Comment delimiters: a line-joined view running a comment's last word into the code after it.
  if (/\*\/|\/\*|\/\/|-->/.test(value)) return false;
  // Type syntax (`Exclude<T, U>`) and camelCase identifiers (`pemEncodedPrivateKey`) are code.
  if (/[<>]/.test(value) || /^[a-z]+(?:[A-Z][a-z]{2,}|\d)*(?:[A-Z][a-z]{2,})+$/.test(value)) return false;
  if (/^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$/.test(value)) return false; // config.db.password
  if (/^[A-Za-z_][A-Za-z_.-]{2,}=/.test(value)) return false; // password=… (a key, then its own value)
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return false; // DB_PASSWORD (a variable name)
  if (!/[A-Za-z]/.test(value) || WORDS.test(value)) return false;
  const classes = characterClasses(value);
  if (classes < 2 || entropy(value) < 2.5) return false;
  // Letters only (camelCase identifiers, words) count only when long and mixed like generated text.
  if (!/[\d\W_]/.test(value)) return value.length >= 20 && classes >= 2 && entropy(value) >= 3.5;
  return true;
}

/** A secret assignment's value is a literal that looks generated, not code, prose or a placeholder. */
export function acceptAssignment(match: RegExpExecArray): boolean {
  const quoted = match[1];
  const value = quoted ?? match[2] ?? '';
  // An empty value followed by an escaped line break (`KEY=\nNEXT=…` inside a string literal).
  if (/^\\[nrt]/.test(value)) return false;
  if (value.length < 8 || isDocumentationValue(value) || entropy(value) < 3) return false;
  if (quoted !== undefined) return characterClasses(value.replace(/[^A-Za-z0-9]/g, '')) >= 2;
  // A bare value must not be code: no call, member access, interpolation or reference.
  const next = match.input[match.index + match[0].length] ?? '';
  if (next === '(' || /[.([{$<>]/.test(value) || /^[A-Za-z_][A-Za-z_.-]{2,}=/.test(value)) return false;
  return /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** Words joined by hyphens or underscores (`short-lived`, `wrong_token_value`): wording, not a key. */
const WORDS = /^[a-z]+(?:[-_][a-z]+)+$/i;
/** Three or more lowercase words joined by hyphens after a prefix (`xoxb-not-a-real-token`): a stand-in. */
const SPELLED_OUT = /^[a-z]+[-_](?:[a-z]+[-_]){2,}[a-z]+$/;

/**
 * An HTTP credential header's value: Basic must decode to `user:password`; other schemes need a
 * value that looks generated.
 */
export function acceptHeaderValue(header: string, value: string): boolean {
  if (isDocumentationValue(value) || /^[$%{<]/.test(value) || WORDS.test(value)) return false;
  // Member access in code (`apiKey: options.apiKey`, `process.env.API_KEY`): a lower-case word, then identifiers.
  if (/^[a-z]{1,30}(?:\.[A-Za-z_$][\w$]{0,40})+$/.test(value)) return false;
  if (/\bbasic\s/i.test(header)) return Buffer.from(value, 'base64').toString('utf8').includes(':');
  return value.length >= 12 ? entropy(value) >= 3 : looksLikeCredential(value, 8);
}

/** The sample token of jwt.io and the JWT specifications (John Doe, subject 1234567890). */
export function isDocumentationJwt(jwt: string): boolean {
  const payload = Buffer.from((jwt.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  return /"sub"\s*:\s*"1234567890"|John Doe|example\.(?:com|org)|"iss"\s*:\s*"joe"/.test(payload);
}

/** The match is not a documentation example. */
export const notExample = (m: RegExpExecArray) => !isDocumentationValue(m[0]);
/** The last capture group holds a value that looks like a credential. */
export const lastGroupLooksReal = (m: RegExpExecArray) => looksLikeCredential(lastGroup(m), 6);

/** The last capture group that matched, else the whole match. */
export function lastGroup(m: RegExpExecArray): string {
  for (let i = m.length - 1; i > 0; i--) if (m[i] !== undefined) return m[i] ?? '';
  return m[0];
}

/** Mixed letters and digits (random bodies have both; words and version strings rarely do). */
export const mixed = (m: RegExpExecArray) => notExample(m) && /\d/.test(m[0]) && /[A-Za-z]/.test(m[0]);
