/**
 * The governance rules (memctl's policy engine and KOAS's pipeline, made stronger): secrets and
 * prompt injection are rejected, tool-call payloads are rejected, self-instructions and personal
 * data are quarantined. Token rules look at the normalised text, the text with line breaks joined
 * and base64-decoded runs; phrase rules look at the accent-folded, whitespace-collapsed text.
 *
 * Descriptions name what a rule catches without quoting a triggering phrase, so that this file and
 * the rule listing pass the policy themselves.
 */

import { INJECTION_RULES, INSTRUCTION_RULES, SELF_INSTRUCTION_RULES } from './injection.js';

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
}

/** Content longer than this (in characters) is rejected unless the item is a `pointer`. */
export const MAX_CONTENT_CHARS = 2000;

const PLACEHOLDER
  = /^(?:\*+|x+|\.+|-+|_+|#+|\?+|0+|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\$\{?\w+\}?|%\w+%|\$\(.*\)|(?:my|your|the|some|new|old|example|sample|dummy|fake|test|default)?[_-]?(?:pass(?:word)?|passwd|pwd|secret|token|api[_-]?key|key|changeme|change[_-]?me|redacted|placeholder|value|xxx+|none|null|nil|undefined|empty|example|sample|dummy|hunter2|letmein|admin|root|user|guest|test|string|str|env|required|optional)s?\d?)$/i;

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value.trim());
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
  return [/[a-z]/, /[A-Z]/, /\d/].filter((r) => r.test(value)).length;
}

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

/** A secret assignment's value is a literal that looks generated, not code, prose or a placeholder. */
function acceptAssignment(match: RegExpExecArray): boolean {
  const quoted = match[1];
  const value = quoted ?? match[2] ?? '';
  if (value.length < 8 || isPlaceholder(value) || entropy(value) < 3) return false;
  if (quoted !== undefined) return characterClasses(value) >= 2;
  // A bare value must not be code: no call, member access, interpolation or reference.
  const next = match.input[match.index + match[0].length] ?? '';
  if (next === '(' || /[.([{$<>]/.test(value)) return false;
  return /\d/.test(value) && /[A-Za-z]/.test(value);
}

const RESERVED_EMAIL_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost|local)$/i;

const SECRET_RULES: PatternRule[] = [
  {
    id: 'secret.aws-access-key',
    description: 'AWS access key id (AKIA/ASIA… followed by 16 characters)',
    patterns: [/\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Z0-9])/g],
  },
  {
    id: 'secret.aws-secret-key',
    description: 'AWS secret access key assigned to an aws_secret… name',
    patterns: [/\baws_?(?:secret_?(?:access_?)?key|secret)\b["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi],
  },
  {
    id: 'secret.github-token',
    description: 'GitHub personal, OAuth, app or refresh token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)',
    patterns: [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, /\bgithub_pat_[A-Za-z0-9_]{50,}\b/g],
  },
  {
    id: 'secret.gitlab-token',
    description: 'GitLab personal, deploy, pipeline or runner token (glpat-, gldt-, glptt-, glrt-)',
    patterns: [/\bgl(?:pat|dt|ptt|rt|cbt|oas|soat|ft|imt)-[A-Za-z0-9_-]{20,}/g],
  },
  {
    id: 'secret.openai-key',
    description: 'OpenAI API key (sk-, sk-proj-, sk-svcacct-)',
    patterns: [/\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g],
  },
  {
    id: 'secret.anthropic-key',
    description: 'Anthropic API or admin key (sk-ant-…)',
    patterns: [/\bsk-ant-(?:api|admin|sid|oat)\d{2}-[A-Za-z0-9_-]{32,}/g],
  },
  {
    id: 'secret.slack-token',
    description: 'Slack bot, user, app or refresh token (xox…) and incoming-webhook URL',
    patterns: [
      /\bxox[abposre]-(?:\d+-)*[A-Za-z0-9]{10,}(?:-[A-Za-z0-9]+)*/g,
      /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{16,}/g,
    ],
  },
  {
    id: 'secret.stripe-key',
    description: 'Stripe secret or restricted key (sk_live_, rk_test_, …) and webhook secret (whsec_)',
    patterns: [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g, /\bwhsec_[A-Za-z0-9]{32,}\b/g],
  },
  {
    id: 'secret.google-key',
    description: 'Google API key (AIza…) and OAuth client secret (GOCSPX-)',
    patterns: [/\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, /\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g],
  },
  {
    id: 'secret.provider-token',
    description:
      'Other provider tokens: npm, Hugging Face, SendGrid, Twilio, Shopify, DigitalOcean, Mailgun, Telegram bot, Azure storage account key',
    patterns: [
      /\bnpm_[A-Za-z0-9]{36}\b/g,
      /\bhf_[A-Za-z0-9]{34,}\b/g,
      /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g,
      /\bSK[0-9a-f]{32}\b/g,
      /\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b/g,
      /\bdo[por]_v1_[a-f0-9]{64}\b/g,
      /\bkey-[0-9a-f]{32}\b/g,
      /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/g,
      /\bAccountKey=[A-Za-z0-9+/]{86}==/g,
    ],
  },
  {
    id: 'secret.private-key',
    description: 'Private key block (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP) or PuTTY key file',
    patterns: [
      // The whole block, so that no excerpt can show a line of the key.
      /-----BEGIN (?:(?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z ]+-----|$)/g,
      /PuTTY-User-Key-File-\d+:[\s\S]*/g,
    ],
  },
  {
    id: 'secret.jwt',
    description: 'JSON Web Token (three base64url segments, header and payload starting eyJ)',
    patterns: [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/g],
  },
  {
    id: 'secret.url-credentials',
    description: 'Password inside a URL or connection URI (scheme://user:password@host)',
    needs: /:\/\/[^@\s]*@/,
    patterns: [/\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s/:@'"]+:([^\s/@'"]+)@[^\s/'"]+/gi],
    accept: (m: RegExpExecArray) => !isPlaceholder(m[1] ?? '') && !/^[$%{<]/.test(m[1] ?? ''),
  },
  {
    id: 'secret.connection-string',
    description: 'Password field of a database connection string (semicolon-separated key=value pairs)',
    needs: /p(?:ass)?w(?:or)?d\s*=/i,
    patterns: [
      /\b(?:server|data source|host|database|initial catalog|user id|uid|user)\s*=\s*[^;\n]+;[^\n]*?\b(?:password|pwd)\s*=\s*([^;'"\s]+)/gi,
    ],
    accept: (m: RegExpExecArray) => !isPlaceholder(m[1] ?? '') && !/^[$%{<]/.test(m[1] ?? ''),
  },
  {
    id: 'secret.assignment',
    description:
      'password=, secret=, api_key=, token= and similar assignments whose value looks generated (long, high entropy)',
    needs: /(?:pass|pwd|secret|key|token)\w*["']?\s*[:=]/i,
    patterns: [
      /\b[A-Za-z0-9_.-]*?(?:password|passwd|pwd|(?:secret|signing|encryption|master|private)[_-]?key|secret|api[_-]?key|apikey|access[_-]?key|auth[_-]?token|access[_-]?token|refresh[_-]?token|bearer[_-]?token|client[_-]?secret|private[_-]?key|token)["']?\s*(?::=|=>|[:=])\s*(?:["'`]([^"'`\s]{1,256})["'`]|([^\s"'`,;)}\]]{1,256}))/gi,
    ],
    accept: acceptAssignment,
  },
].map((rule) => ({ ...rule, group: 'secret', action: 'reject', kind: 'token' }) as PatternRule);

const PHONE_DIGITS = (m: RegExpExecArray) => {
  const digits = m[0].replace(/\D/g, '').length;
  return digits >= 8 && digits <= 15;
};

const PII_RULES: PatternRule[] = [
  {
    id: 'pii.email',
    description: 'E-mail address (reserved example domains excepted)',
    needs: /@/,
    patterns: [/(?<![\w/:.%+-])[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b/g],
    accept: (m: RegExpExecArray) => !RESERVED_EMAIL_DOMAIN.test(m[1] ?? '') && !/^git@/i.test(m[0]),
  },
  {
    id: 'pii.phone',
    description: 'Phone number in international (+ prefix) or common national formats',
    patterns: [
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
    patterns: [/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g],
    accept: (m: RegExpExecArray) => ibanValid(m[0]),
  },
  {
    id: 'pii.payment-card',
    description: 'Payment card number (Visa, Mastercard, Amex, Discover, JCB) that passes the Luhn check',
    patterns: [/(?<![\d.-])\d(?:[ -]?\d){12,18}(?![\d.-])/g],
    accept: (m: RegExpExecArray) => {
      const digits = m[0].replace(/\D/g, '');
      const issuer = /^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)\d{12}|3[47]\d{13}|6(?:011|5\d{2})\d{12}|35(?:2[89]|[3-8]\d)\d{12})$/;
      return issuer.test(digits) && luhnValid(digits);
    },
  },
].map((rule) => ({ ...rule, group: 'pii', action: 'quarantine', kind: 'token' }) as PatternRule);

/** Every pattern rule, in evaluation order: rejections first (injection rules: see injection.ts). */
export const PATTERN_RULES: readonly PatternRule[] = Object.freeze([
  ...SECRET_RULES,
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
]);
