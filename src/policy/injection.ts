/**
 * The prompt-injection rules: instruction override, role redefinition and system-prompt extraction
 * in seventeen languages (compiled by `injection-compile.ts` from the lexicons of
 * `injection-lexicon.ts` at build time, read here from `injection-sources.generated.ts`),
 * chat-template markers of current model families, lines that imitate engram's own recall block,
 * and instructions addressed to an AI in hidden places. Tool-call payloads, exfiltration
 * directives and self-instructions are in `instructions.ts`.
 *
 * Descriptions name what a rule catches without quoting a triggering phrase, so that this file and
 * the rule listing pass the policy themselves.
 */
import { HIDDEN_MARK } from './deobfuscate.js';
import { INJECTION_LANGUAGES, loadInjectionSources as lexicon } from './injection-sources.generated.js';
import { lazyRule, type RuleDefinition } from './lazy-rule.js';
import type { PatternRule } from './rules.js';

const NAMES = INJECTION_LANGUAGES;

/** Compiled lexicon patterns match the lower-cased phrase views (no `i` flag: much faster to compile). */
function regex(source: string): RegExp {
  return new RegExp(source, 'g');
}

/** Spaced-out text joined into one word (`i g n o r e a l l …`) keeps its meaning here. */
const SQUEEZED = {
  override: /(?:ignore|disregard|forget|override|bypass)(?:all|any|the|your|my|of)*(?:previous|prior|above|earlier|preceding|original|initial|system)(?:instructions?|prompts?|directives?|guidelines|rules|guardrails|restrictions)/gi,
  redefine: /(?:youarenow(?:an?|the|my|dan|free|unrestricted|unfiltered|jailbroken|no)|fromnowonyou(?:are|will|must)|pretend(?:that)?youare|actasan?(?:unrestricted|unfiltered|uncensored|jailbroken))/gi,
  reveal: /(?:reveal|print|show|display|output|repeat|leak|dump|tellme)(?:me)?your(?:full|entire|hidden|initial|original|secret)*(?:systemprompt|systemmessage|hiddeninstructions|initialinstructions)/gi,
};

/** A special token that opens a turn for a role (ChatML, Harmony, Llama 3, Gemma, Phi, DeepSeek after NFKC). */
const TURN_OPEN = '(?:(?:<\\|im_start\\|>|<\\|start\\|>|<\\|start_header_id\\|>|<start_of_turn\\>)\\s*(?:system|developer|user|assistant|tool|model|ipython)(?:<\\|end_header_id\\|>|<\\|channel\\|>\\w*)?(?:<\\|message\\|>)?|<\\|(?:system|user|assistant|developer)\\|>)';
const TURN_CLOSE = '(?:<\\|im_end\\|>|<\\|eot_id\\|>|<\\|end\\|>|<end_of_turn\\>|<\\|im_start\\|>|<\\|(?:user|assistant)\\|>|$)';
/** Turn content: not a template placeholder ({instructions}, <text>, …) and not prose about the marker. */
const CONTENT = '(?![{<[…]|\\.\\.\\.)\\S';
const WORDS = '(?![{<[…]|\\.\\.\\.|and\\b|or\\b)(?:[^\\s<]+[ \\t]+){2,}';

/** Between a spoofed block line and the text after it: the rest of the line, blank lines, markup. */
const AFTER = '[^\\n]{0,80}?\\s{0,20}?(?:[#>*_[]\\s{0,3}){0,4}';
const SYSTEM_CUE = '(?:system|assistant|developer|admin|operator|new instructions|instructions?|important|urgent|override|ignore|disregard|forget|trusted|verified|<\\||\\[INST|you (?:are|must|should|will))';

const INJECTION: PatternRule[] = ([
  {
    id: 'injection.override',
    kind: 'phrase',
    description: `Asks the model to drop earlier or system instructions (${NAMES})`,
    needs: () => new RegExp(lexicon().overrideVerbs),
    patterns: () => [
      ...lexicon().override.map(regex),
      /\b(?:ignore|disregard|forget) (?:all|everything)(?: of)?(?: the| your| my)? (?:instructions?|prompts?|directives?|guidelines|you (?:were|have been) told)\b/gi,
      /\b(?:oublie[rsz]?|ignore[rsz]?) tout ce qu(?:e|')(?: ?on)? (?:t'a|vous a|t'avait|vous avait) (?:dit|demande)/gi,
      SQUEEZED.override,
    ],
  },
  {
    id: 'injection.system-prompt',
    kind: 'phrase',
    description: `Tries to read out or replace the system prompt (${NAMES})`,
    patterns: () => [
      ...lexicon().reveal.map(regex),
      /\b(?:reveal|leak|dump) (?:me )?the (?:(?:full|entire|hidden|initial|original|secret) )*(?:system (?:prompt|message|instructions)|hidden instructions|initial instructions)\b/gi,
      /\b(?:print|show|display|output|repeat|tell|give) (?:me|us) (?:the|your) (?:(?:full|entire|hidden|initial|original|secret) )*(?:system (?:prompt|message|instructions)|hidden instructions|initial instructions|instructions above)\b/gi,
      /\b(?:print|show|display|output|repeat|leak|reveal) (?:the )?(?:hidden|initial|original|secret) instructions you (?:were|have been) given\b/gi,
      /\bwhat (?:is|are|was|were) your (?:system prompt|(?:initial|original|hidden) instructions)\b/gi,
      /\b(?:new|updated|override) system (?:prompt|message|instructions) ?:/gi,
      /\bnew system prompt\b(?!s? (?:format|feature|support|option|field|setting|template|file|version|is|was|has|will))/gi,
      /\b(?:repeat|print|reveal|output|show|quote) (?:me )?(?:the )?(?:full |exact )?(?:text|contents?|wording) of your (?:system prompt|system message|(?:initial |original |hidden )?instructions)\b/gi,
      /\b(?:begin|end|start of|end of) (?:the )?system prompt ?(?:[:\]>=-]|$)/gim,
      /\b(?:revele[rsz]?|affiche[rsz]?|montre[rsz]?|repete[rsz]?|donne[rsz]?)(?: moi| nous)? (?:ton|ta|tes|votre|vos) (?:prompt|invite|instructions|consignes) (?:systeme|initiale?s?|cachee?s?|d'origine)\b/gi,
      /\bnouveau prompt systeme\b/gi,
      SQUEEZED.reveal,
    ],
  },
  {
    id: 'injection.redefine',
    kind: 'phrase',
    description: `Redefines who the assistant is or switches it into an unrestricted mode (${NAMES})`,
    patterns: () => [
      /\byou are (?:now|no longer) (?:a|an|the|my|called|named|free|unrestricted|unfiltered|jailbroken|dan|in (?:developer|maintenance|god|admin|unrestricted|jailbreak|dan) mode)\b/gi,
      /\bfrom now on,? (?:you|your)(?: \S+)? (?:are|will|must|shall|should|role|name|only)\b/gi,
      /\bpretend (?:that )?you are\b/gi,
      /\b(?:act|behave|respond) as (?:if you (?:are|were) )?(?:an? )?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|dan)\b/gi,
      /\b(?:enable|enter|activate|switch to|turn on) (?:the )?(?:dan|god|jailbreak|unrestricted) mode\b/gi,
      /\b(?:enable|enter|activate|switch to|turn on) developer mode (?:and|to|so|now|immediately|:)/gi,
      /\bdo anything now\b/gi,
      /\byou are dan\b/gi,
      /\byour (?:new|real|true) (?:role|persona|instructions|identity|task|purpose) (?:is|are)\b/gi,
      /\b(?:tu es|vous etes) (?:maintenant|desormais|a present) (?:un|une|le|la|mon|ma|libre|sans)\b/gi,
      /\ba partir de maintenant,? (?:tu|vous) (?:es|etes|dois|devez|vas|allez|ne)\b/gi,
      /\b(?:fais|faites) comme si (?:tu etais|vous etiez)\b/gi,
      /\b(?:agis|agissez) comme (?:si|un assistant sans|une ia sans)\b/gi,
      /\b(?:active[rz]?|passe[rz]? en) (?:le )?mode (?:developpeur|sans restriction|sans limites?|jailbreak)\b/gi,
      /\bmode (?:sans restriction|sans limites?|jailbreak)\b/gi,
      /\b(?:tes|vos) (?:nouvelles|vraies) (?:instructions|consignes|regles)\b/gi,
      ...lexicon().redefine.map(regex),
      SQUEEZED.redefine,
    ],
  },
  {
    id: 'injection.role-marker',
    kind: 'token',
    description:
      'Chat-template turns (ChatML, Llama 2 and 3, Gemma, Mistral, Phi, DeepSeek, Harmony, Command-R, legacy Human/Assistant, system headings): a marker that opens a turn for a role and gives it content; a marker named in prose or a template with placeholders passes',
    patterns: () => [
      // A turn opened for a role and given content: on the next line, or three words or more up to a closing token.
      new RegExp(`${TURN_OPEN}[ \\t]*\\r?\\n\\s*${CONTENT}`, 'gi'),
      new RegExp(`${TURN_OPEN}[ \\t]*${WORDS}[^\\n]*?${TURN_CLOSE}`, 'gi'),
      /<\|START_OF_TURN_TOKEN\|>\s*<\|(?:SYSTEM|USER|CHATBOT)_TOKEN\|>\s*(?![{<[\u2026]|\.\.\.)\S/gi,
      // Llama 2 and Mistral: three words or more inside a pair, or a block opened at the start of a line.
      /\[(INST|SYSTEM_PROMPT)\][ \t]*(?:\r?\n\s*)?(?:[^\s[\]]+\s+){2,}[^\n]*?\[\/\1\]/gi,
      /<{2}SYS>{2}\s*(?:[^\s<>]+\s+){2,}[^\n]*?(?:<<\/SYS>>|$)/g,
      /^[ \t]*(?:\[INST\]|\[SYSTEM_PROMPT\]|<{2}SYS>{2})[ \t]*(?![{<[\u2026]|\.\.\.)\S/gim,
      /\[(?:AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS)\]\s*[[{]/g,
      // Legacy Human / Assistant turns (a blank line, then the role).
      /(?:^|\n[ \t]*\n)[ \t]*Human[ \t]*:[ \t]*\S/g,
      /\n[ \t]*\n[ \t]*Assistant[ \t]*:[ \t]*\S/g,
      // Headings and lines that speak as the system to "you" (a "System: overview" heading does not).
      /^[ \t]*(?:#{1,6}[ \t]*)?\**(?:system|assistant|developer)\**[ \t]*:[ \t]*\**[ \t]*(?:you|your|tu|vous|du|ignore|disregard|forget|override|new instructions|from now on)\b/gim,
      /<\/?(?:system|system[-_]prompt|sys|im_start)>/gi,
    ],
  },
  {
    id: 'injection.recall-block',
    kind: 'token',
    description: 'A line imitating engram\'s recall block (its open or close line, an item header, an end-of-memory line) followed by text that speaks as the system',
    patterns: () => [
      new RegExp(`^[ \\t>]*\\[\\/?ENGRAM_MEMORY\\b[^\\n\\]]*\\]?${AFTER}${SYSTEM_CUE}`, 'gim'),
      new RegExp(`^[ \\t>]*-{2,} ?ITEM \\d+ ?\\/ ?\\d+ \\[[^\\]\\n]*\\] ?-{2,}${AFTER}${SYSTEM_CUE}`, 'gim'),
      new RegExp(`^[ \\t>]*(?:-{3}|={3}|#{1,3})[ \\t]*(?:end of (?:memory|memories|context|retrieved (?:context|memory))|memory (?:block )?ends?)\\b[^\\n]*${AFTER}${SYSTEM_CUE}`, 'gim'),
    ],
  },
  {
    id: 'injection.addressed',
    kind: 'phrase',
    description: 'Speaks to an AI that reads the text (a conditional on being an AI, AI agents told what to do with the page, notes headed to an AI), in several languages',
    patterns: () => [
      /\bif you are an? (?:ai|a\.i\.|llm|large language model|language model|ai (?:assistant|agent|model)|assistant|chatbot|bot|agent)\b/gi,
      /\b(?:ai|llm|gpt|claude|chatgpt)s?(?: (?:assistants?|agents?|models?|crawlers?|bots?|systems?))? (?:reading|processing|parsing|summari[sz]ing|analy[sz]ing|browsing|visiting|scraping) this\b/gi,
      /\b(?:note|message|instructions?|attention|important|reminder) (?:to|for) (?:the |any |all )?(?:ai|llm|gpt|claude|chatgpt|language model|ai (?:assistant|agent|model))s?\s*[:,!-]/gi,
      /\bsi (?:eres|es|tu es|vous etes|sei) (?:una? |l')?(?:ia|ai|llm|asistente|assistant|assistente|modelo de lenguaje|modele de langage)\b/gi,
      /\bwenn du (?:eine|ein) (?:ki|llm|sprachmodell|ki-assistent)\b/gi,
      /\bse (?:voce|voc\u00EA) (?:e|\u00E9) (?:uma?|o|a) (?:ia|llm|assistente)\b/gi,
      ...lexicon().addressed.map(regex),
    ],
  },
  {
    id: 'injection.hidden-directive',
    kind: 'phrase',
    description:
      'An instruction to an AI inside a hidden place: HTML comment, hidden element, code comment, front matter, link title, alt text, details block',
    needs: () => new RegExp(`^${HIDDEN_MARK}`),
    patterns: () => [
      regex(lexicon().hiddenDirective),
    ],
  },
] satisfies Omit<RuleDefinition, 'group' | 'action'>[]).map((rule) => lazyRule({ ...rule, group: 'injection', action: 'reject' }));

/** Rejected: an instruction to the model (override, redefinition, markers, hidden orders). */
export const INJECTION_RULES: readonly PatternRule[] = INJECTION;
