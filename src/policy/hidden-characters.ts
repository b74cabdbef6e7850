/**
 * `injection.hidden-characters`: text that carries Unicode tag characters (U+E0000–E007F, an
 * invisible copy of ASCII that models read and people do not) or bidi embedding, override and
 * isolate controls (U+202A–202E, U+2066–2069, which show text in another order than it is read)
 * is quarantined. The other rules never see these characters (normalisation removes them before
 * matching), so this rule looks at the text as written. Zero-width joiners and non-joiners are
 * legitimate (emoji sequences, Persian and Indic scripts) and are not flagged; recall removes them
 * where they sit inside ASCII text (recall/escape-block.ts). Pure.
 */
import type { PolicyMatch } from './evaluate.js';
import type { PolicyRule } from './rules.js';

export const HIDDEN_CHARACTERS_RULE: PolicyRule = Object.freeze({
  id: 'injection.hidden-characters',
  group: 'injection',
  action: 'quarantine',
  description: 'Invisible Unicode tag characters or bidi override/isolate controls (text a reader cannot see as a model reads it)',
});

const HIDDEN = /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069]/gu;

/** The rule's match on `text` (as written, not normalised), or undefined. */
export function hiddenCharacterMatch(text: string): PolicyMatch | undefined {
  const found = text.match(HIDDEN);
  if (found === null) return undefined;
  const tags = found.filter((c) => (c.codePointAt(0) ?? 0) >= 0xe0000).length;
  const parts = [tags > 0 ? `${tags} tag character${tags === 1 ? '' : 's'}` : '', found.length > tags ? `${found.length - tags} bidi control${found.length - tags === 1 ? '' : 's'}` : ''];
  return {
    rule: HIDDEN_CHARACTERS_RULE.id,
    group: HIDDEN_CHARACTERS_RULE.group,
    action: HIDDEN_CHARACTERS_RULE.action,
    excerpt: parts.filter((p) => p !== '').join(', '),
  };
}
