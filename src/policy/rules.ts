/**
 * The governance rules (memctl's policy engine and KOAS's pipeline, made stronger): secrets and
 * prompt injection are rejected, tool-call payloads are rejected, self-instructions and personal
 * data are quarantined. Token rules look at the normalised text, the text with line breaks joined
 * and base64-decoded runs; phrase rules look at the accent-folded, whitespace-collapsed text.
 *
 * Descriptions name what a rule catches without quoting a triggering phrase, so that this file and
 * the rule listing pass the policy themselves.
 */

import { HIDDEN_CHARACTERS_RULE } from './hidden-characters.js';
import { INJECTION_RULES } from './injection.js';
import { INSTRUCTION_RULES, SELF_INSTRUCTION_RULES } from './instructions.js';
import { lazyRule, type RuleDefinition } from './lazy-rule.js';
import { SECRET_PATTERN_RULES } from './secret-check.js';

export { entropy, isPlaceholder } from './secret-values.js';

export type PolicyGroup = 'secret' | 'injection' | 'instruction' | 'self-instruction' | 'pii' | 'size' | 'provenance';
export type PolicyAction = 'reject' | 'quarantine';

export interface PolicyRule {
  id: string;
  group: PolicyGroup;
  action: PolicyAction;
  description: string;
}

export interface PatternRule extends PolicyRule {
  /** `token`: exact tokens (keys, markers, PII); `phrase`: natural-language wording. */
  kind: 'token' | 'phrase';
  patterns: readonly RegExp[];
  /** Second check on a match (checksum, entropy, placeholder); a match it refuses does not count. */
  accept?: (match: RegExpExecArray) => boolean;
  /** A cheap test a text must pass before the patterns run (most texts have no `@`, no `://`…). */
  needs?: RegExp;
  /** Instead of `patterns`: where the rule matches (rule sets that are not one regular expression). */
  scan?: (text: string) => Iterable<{ start: number; end: number }>;
  /** For a `scan` rule: the expressions every match of it comes from, when known (the screen reads their literals). */
  scanPatterns?: () => readonly RegExp[] | undefined;
  /** Reported only where no earlier rule of its group matched (a second opinion on the same secret is noise). */
  complements?: boolean;
}

/** Content longer than this (in characters) is rejected unless the item is a `pointer`. */
export const MAX_CONTENT_CHARS = 2000;

/** Luhn checksum of a digit string (payment cards). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616 mod-97 check of an IBAN (spaces ignored). */
export function ibanValid(iban: string): boolean {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const RESERVED_EMAIL_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost|local|internal|home\.arpa|lan|corp)$/i;

const PHONE_DIGITS = (m: RegExpExecArray) => {
  const digits = m[0].replace(/\D/g, '').length;
  return digits >= 8 && digits <= 15;
};

const PII_RULES = ([
  {
    id: 'pii.email',
    description: 'E-mail address (reserved example domains excepted)',
    needs: () => /@/,
    patterns: () => [/(?<![\w/:.%+-])[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b/g],
    accept: (m: RegExpExecArray) => !RESERVED_EMAIL_DOMAIN.test(m[1] ?? '') && !/^git@/i.test(m[0]),
  },
  {
    id: 'pii.phone',
    description: 'Phone number in international (+ prefix) or common national formats',
    patterns: () => [
      /(?<![\w+])\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,4}){2,4}(?![\w])/g,
      /(?<!\w)\(\d{3}\) ?\d{3}[-. ]\d{4}\b/g,
      /\b0[1-9](?:[ .-]\d{2}){4}\b/g,
      /\b\d{3}-\d{3}-\d{4}\b/g,
    ],
    accept: PHONE_DIGITS,
  },
  {
    id: 'pii.iban',
    description: 'IBAN that passes the ISO 13616 mod-97 check',
    patterns: () => [/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g],
    accept: (m: RegExpExecArray) => ibanValid(m[0]),
  },
  {
    id: 'pii.payment-card',
    description: 'Payment card number (Visa, Mastercard, Amex, Discover, JCB) that passes the Luhn check',
    patterns: () => [/(?<![\d.-])\d(?:[ -]?\d){12,18}(?![\d.-])/g],
    accept: (m: RegExpExecArray) => {
      const digits = m[0].replace(/\D/g, '');
      const issuer = /^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)\d{12}|3[47]\d{13}|6(?:011|5\d{2})\d{12}|35(?:2[89]|[3-8]\d)\d{12})$/;
      return issuer.test(digits) && luhnValid(digits);
    },
  },
] satisfies Omit<RuleDefinition, 'group' | 'action' | 'kind'>[]).map((rule) =>
  lazyRule({ ...rule, group: 'pii', action: 'quarantine', kind: 'token' }));

/** Every pattern rule, in evaluation order: rejections first (injection rules: see injection.ts). */
export const PATTERN_RULES: readonly PatternRule[] = Object.freeze([
  ...SECRET_PATTERN_RULES,
  ...INJECTION_RULES,
  ...INSTRUCTION_RULES,
  ...SELF_INSTRUCTION_RULES,
  ...PII_RULES,
]);

export const SIZE_RULE: PolicyRule = Object.freeze({
  id: 'size.content',
  group: 'size',
  action: 'reject',
  description: `Content longer than ${MAX_CONTENT_CHARS} characters (pointer items excepted; ingest chunks long text)`,
});

export const PROVENANCE_RULE: PolicyRule = Object.freeze({
  id: 'provenance.missing',
  group: 'provenance',
  action: 'quarantine',
  description: 'An agent proposal without provenance or justification',
});

/** The rule listing of `engram policy rules`. */
export const ALL_RULES: readonly PolicyRule[] = Object.freeze([
  ...PATTERN_RULES.map(({ id, group, action, description }) => ({ id, group, action, description })),
  SIZE_RULE,
  PROVENANCE_RULE,
  HIDDEN_CHARACTERS_RULE,
]);
