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
import { SECRETLINT_RULES } from './secretlint.js';
import { SECRET_RULES } from './secrets.js';

export { entropy, isPlaceholder } from './secrets.js';

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

const RESERVED_EMAIL_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost|local)$/i;

const INJECTION_RULES: PatternRule[] = [
  {
    id: 'injection.override',
    kind: 'phrase',
    description: 'Asks the model to drop earlier or system instructions (English)',
    patterns: [
      /\b(?:ignore|disregard|forget|override|bypass)\b(?: \S+){0,3}? (?:previous|prior|above|earlier|preceding|former|original|initial|system|your|my)(?: \S+){0,2}? (?:instructions?|prompts?|directives?|guidelines|rules|guardrails|restrictions|programming)\b/gi,
      /\b(?:ignore|disregard|forget) (?:all|everything)(?: of)?(?: the| your| my)? (?:instructions?|prompts?|directives?|guidelines|you (?:were|have been) told)\b/gi,
    ],
  },
  {
    id: 'injection.override-fr',
    kind: 'phrase',
    description: 'Asks the model to drop earlier or system instructions (French)',
    patterns: [
      /\b(?:ignore[rsz]?|oublie[rsz]?|outrepasse[rsz]?|ne (?:tiens|tenez) (?:pas|plus) compte|(?:fais|faites) abstraction)\b(?: \S+){0,4}? (?:instructions|consignes|regles|directives|indications)(?: \S+){0,1}? (?:precedentes|anterieures|ci-dessus|initiales|d'origine|du systeme|systeme)\b/gi,
      /\b(?:oublie[rsz]?|ignore[rsz]?) tout ce qu(?:e|')(?: ?on)? (?:t'a|vous a|t'avait|vous avait) (?:dit|demande)/gi,
    ],
  },
  {
    id: 'injection.system-prompt',
    kind: 'phrase',
    description: 'Tries to read out or replace the system prompt (English and French)',
    patterns: [
      /\b(?:reveal|print|show|display|output|repeat|leak|dump|tell me) (?:me )?(?:your|the) (?:(?:full|entire|hidden|initial|original|secret) )*(?:system (?:prompt|message|instructions)|hidden instructions|initial instructions|instructions above)\b/gi,
      /\b(?:new|updated|override) system (?:prompt|message|instructions)\b/gi,
      /\b(?:repeat|print|reveal|output|show|quote) (?:me )?(?:the )?(?:full |exact )?(?:text|contents?|wording) of (?:your|the) (?:system prompt|system message|(?:initial |original |hidden )?instructions)\b/gi,
      /\b(?:begin|end|start of|end of) (?:the )?system prompt\b/gi,
      /\b(?:revele[rsz]?|affiche[rsz]?|montre[rsz]?|repete[rsz]?|donne[rsz]?)(?: moi| nous)? (?:ton|ta|tes|le|la|les|votre|vos) (?:prompt|invite|instructions|consignes) (?:systeme|initiale?s?|cachee?s?|d'origine)\b/gi,
      /\bnouveau prompt systeme\b/gi,
    ],
  },
  {
    id: 'injection.role-marker',
    kind: 'token',
    description: 'Chat-template role markers and special tokens (im_start, INST, SYS, system or assistant headings)',
    patterns: [
      /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>/gi,
      /\[\/?INST\]/gi,
      /<<\/?SYS>>/g,
      /^[ \t]*#{1,4}[ \t]*(?:system|assistant)[ \t]*:/gim,
      /<\/?(?:system|system[-_]prompt|sys)>/gi,
      /^[ \t]*(?:system|assistant)[ \t]*:[ \t]*(?:you|tu|vous)\b/gim,
    ],
  },
  {
    id: 'injection.redefine',
    kind: 'phrase',
    description: 'Redefines who the assistant is or switches it into an unrestricted mode (English)',
    patterns: [
      /\byou are (?:now|no longer) (?:a|an|the|my|called|named|free|unrestricted|unfiltered|jailbroken|dan)\b/gi,
      /\bfrom now on,? (?:you|your)(?: \S+)? (?:are|will|must|shall|should|role|name|only)\b/gi,
      /\bpretend (?:that )?you are\b/gi,
      /\bact as (?:if you (?:are|were) )?(?:an? )?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|dan)\b/gi,
      /\b(?:enable|enter|activate|switch to|turn on) (?:the )?(?:developer|dan|god|jailbreak|unrestricted|debug admin) mode\b/gi,
      /\bdo anything now\b/gi,
      /\byour (?:new|real|true) (?:role|persona|instructions|identity|task|purpose) (?:is|are)\b/gi,
    ],
  },
  {
    id: 'injection.redefine-fr',
    kind: 'phrase',
    description: 'Redefines who the assistant is or switches it into an unrestricted mode (French)',
    patterns: [
      /\b(?:tu es|vous etes) (?:maintenant|desormais|a present) (?:un|une|le|la|mon|ma|libre|sans)\b/gi,
      /\ba partir de maintenant,? (?:tu|vous) (?:es|etes|dois|devez|vas|allez|ne)\b/gi,
      /\b(?:fais|faites) comme si (?:tu etais|vous etiez)\b/gi,
      /\b(?:agis|agissez) comme (?:si|un assistant sans|une ia sans)\b/gi,
      /\bmode (?:developpeur|sans restriction|sans limites?|jailbreak)\b/gi,
      /\b(?:tes|vos) (?:nouvelles|vraies) (?:instructions|consignes|regles)\b/gi,
    ],
  },
].map((rule) => ({ ...rule, group: 'injection', action: 'reject' }) as PatternRule);

const INSTRUCTION_RULES: PatternRule[] = [
  {
    id: 'instruction.tool-call-markup',
    kind: 'token',
    description: 'Tool-invocation markup (function_calls, invoke, tool_call, tool_use tags, parameter tags)',
    patterns: [
      /<\/?(?:[a-z]+:)?(?:function_calls|function_call|tool_calls?|tool_use|tool_result|invoke)\b[^>]{0,200}>/gi,
      /<(?:[a-z]+:)?parameter\s+name=["'][^"']{1,100}["']\s*>/gi,
    ],
  },
  {
    id: 'instruction.tool-call-json',
    kind: 'token',
    description: 'Raw tool-call JSON payloads (tool_calls, function_call, tool_use blocks, name + arguments objects)',
    patterns: [
      /"(?:tool_calls|function_call|tool_use_id|tool_call_id)"\s*:/g,
      /"type"\s*:\s*"(?:tool_use|tool_call|function_call|tool_result)"/g,
      /\{\s*"(?:name|tool|function|tool_name)"\s*:\s*"[\w.:/-]{1,100}"\s*,\s*"(?:arguments|parameters|input|args)"\s*:\s*[{"[]/g,
    ],
  },
  {
    id: 'instruction.chat-role-json',
    kind: 'token',
    description: 'Chat messages as JSON whose role is system, developer, assistant or tool',
    patterns: [/"role"\s*:\s*"(?:system|developer|assistant|tool)"/g],
  },
  {
    id: 'instruction.execute-directive',
    kind: 'phrase',
    description: 'Orders the agent to run a command or tool at once, without confirmation (English and French)',
    patterns: [
      /\b(?:execute|run) (?:the following|this|these) (?:shell )?(?:commands?|code|script)(?: \S+){0,3}? (?:immediately|right now|without (?:asking|confirmation|telling))\b/gi,
      /\b(?:call|invoke|use) the \S+ tool (?:to|and) (?:delete|send|exfiltrate|upload|remove|post|email|transfer)\b/gi,
      /\b(?:execute[rz]?|lance[rz]?) (?:immediatement )?(?:la|les|cette|ces) commandes? suivantes?(?: \S+){0,3}? sans (?:demander|confirmation)\b/gi,
    ],
  },
].map((rule) => ({ ...rule, group: 'instruction', action: 'reject' }) as PatternRule);

const SELF_INSTRUCTION_RULES: PatternRule[] = [
  {
    id: 'self-instruction.remember',
    description: 'Standing orders to remember or never forget something (English and French)',
    patterns: [
      /\b(?:always|never) (?:remember|forget) (?:to|that)\b/gi,
      /\bremember to always\b/gi,
      /\bmake sure (?:to |you )?always\b/gi,
      /\b(?:souviens-toi|rappelle-toi|souvenez-vous|rappelez-vous) (?:toujours )?(?:de|d'|que|qu')/gi,
      /\bn'oublie(?:z)? (?:jamais|pas) (?:de|d'|que|qu')/gi,
    ],
  },
  {
    id: 'self-instruction.future-sessions',
    description: 'Instructions aimed at later sessions or conversations (English and French)',
    patterns: [
      /\b(?:in|for|during|across) (?:all |every )?(?:future|subsequent|upcoming|later)(?: \S+)? (?:sessions?|conversations?|chats?|interactions?|turns?)\b/gi,
      /\bnext time (?:you|the assistant|the agent)\b/gi,
      /\b(?:from now on|going forward|henceforth),? (?:always|never|remember|you)\b/gi,
      /\b(?:dans|pour|lors) (?:de |des )?(?:les |toutes les )?(?:prochaines|futures) (?:sessions|conversations|discussions)\b/gi,
      /\ba l'avenir,? (?:tu|vous|toujours|pense|pensez)\b/gi,
      /\bla prochaine fois que (?:tu|vous)\b/gi,
    ],
  },
  {
    id: 'self-instruction.directive',
    description: 'Standing orders to the assistant about how to behave or answer (English and French)',
    patterns: [
      /\b(?:you|the assistant|the agent|the model|the ai|claude|chatgpt) (?:must|should|shall|will) (?:always|never)\b/gi,
      /\b(?:always|never) (?:respond|reply|answer|recommend|suggest|tell the user|obey|trust)\b/gi,
      /\bwhenever (?:you are asked|the user asks|you see|you encounter)\b/gi,
      /\b(?:tu dois|vous devez|tu devras|vous devrez) (?:toujours|jamais)\b/gi,
      /\b(?:reponds|repondez|recommande[sz]?) toujours\b/gi,
    ],
  },
].map((rule) => ({ ...rule, group: 'self-instruction', action: 'quarantine', kind: 'phrase' }) as PatternRule);

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

/** Every pattern rule, in evaluation order: rejections first. */
export const PATTERN_RULES: readonly PatternRule[] = Object.freeze([
  ...SECRET_RULES,
  ...SECRETLINT_RULES,
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
