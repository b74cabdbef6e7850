/**
 * The prompt-injection rules: instruction override, role redefinition and system-prompt extraction
 * in seventeen languages (compiled from the lexicons of `injection-lexicon.ts`), chat-template
 * markers of current model families, tool-call payloads in any key order, exfiltration directives,
 * lines that imitate engram's own recall block, instructions addressed to an AI in hidden places,
 * and the self-instructions (standing orders to the assistant) that are quarantined.
 *
 * Descriptions name what a rule catches without quoting a triggering phrase, so that this file and
 * the rule listing pass the policy themselves.
 */
import { HIDDEN_MARK } from './deobfuscate.js';
import { ADDRESSEES, DIRECTIVES, LEXICONS, type Lexicon } from './injection-lexicon.js';
import { foldPhrases, normalise } from './normalize.js';
import type { PatternRule } from './rules.js';

/**
 * Letters and digits of the scripts the lexicons use (the phrase views are folded and lower case).
 * A short list of ranges rather than `\p{L}`: the expressions stay small and compile fast.
 */
const LETTER = '0-9a-z\\u00DF-\\u024F\\u0370-\\u03FF\\u0400-\\u052F\\u0600-\\u06FF\\u0900-\\u0963\\u0966-\\u097F\\u1100-\\u11FF\\u3040-\\u30FF\\u3400-\\u9FFF\\uAC00-\\uD7AF';
const START = `(?<![${LETTER}])`;
const END = `(?![${LETTER}])`;
const STEM = `[${LETTER}]*`;
const WORD_GAP = '(?: \\S+){0,3}?';
/** Chinese and Japanese: a few characters, but no ASCII punctuation (which would cross a list). */
const CJK_GAP = '[^\\x00-\\x2F\\x3A-\\x40\\x5B-\\x60\\x7B-\\x7F。！？]{0,6}?';

/** The folding applied to text for phrase rules, applied to a lexicon word. */
function fold(word: string): string {
  return foldPhrases(normalise(word));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * One alternative of a slot: `_` is a space, `*` a stem, `,` optional, `§` nothing (it only keeps a
 * one-word entry from matching itself in the lexicon file). Lower case, like the phrase views.
 */
function compileAlternative(alt: string, cjk: boolean): string {
  return alt
    .replace(/§/g, '')
    .split('*')
    .map((piece) => escape(fold(piece.replace(/_/g, ' ')).toLowerCase()).replace(/ /g, cjk ? ' ?' : ' ').replace(/,/g, ',?'))
    .join(STEM);
}

/**
 * A slot (`a|b|c`) as a non-capturing group. Whole words end at a word boundary and stems run on
 * with letters; the boundary is written once per slot, not once per word, to keep the expression
 * small (a Unicode class per alternative makes it slow to compile).
 */
export function compileSlot(slot: string, cjk = false): string {
  const alts = slot.split('|');
  if (cjk) return `(?:${alts.map((alt) => compileAlternative(alt, true)).join('|')})`;
  const words = alts.filter((alt) => !alt.endsWith('*')).map((alt) => compileAlternative(alt, false));
  const stems = alts.filter((alt) => alt.endsWith('*')).map((alt) => compileAlternative(alt.slice(0, -1), false));
  const parts: string[] = [];
  if (words.length > 0) parts.push(`(?:${words.join('|')})${END}`);
  if (stems.length > 0) parts.push(`(?:${stems.join('|')})${STEM}`);
  return `(?:${parts.join('|')})`;
}

/** A lexicon entry (slots separated by spaces) as a regular expression source. */
export function compileEntry(entry: string, cjk = false): string {
  let out = cjk ? '' : START;
  let first = true;
  for (const slot of entry.split(' ')) {
    if (slot === '+') continue;
    if (slot === '…') {
      out += cjk ? CJK_GAP : WORD_GAP;
      continue;
    }
    const optional = slot.endsWith('?') && slot.length > 1;
    const body = optional ? slot.slice(0, -1) : slot;
    const group = body === '\\S' ? '\\S+' : compileSlot(body, cjk);
    const sep = first ? '' : cjk ? ' ?' : '[,،]? ';
    out += optional ? `(?:${sep}${group})?` : `${sep}${group}`;
    first = false;
  }
  return out;
}

/** Compiled lexicon patterns match the lower-cased phrase views (no `i` flag: much faster to compile). */
function regex(source: string): RegExp {
  return new RegExp(source, 'g');
}

/** Verb … (qualifiers + noun | noun + qualifiers | strong noun), and the object-first order. */
function overridePatterns(lex: Lexicon): RegExp[] {
  const cjk = lex.cjk === true;
  const v = compileSlot(lex.verbs, cjk);
  const q = compileSlot(lex.qualifiers, cjk);
  const n = compileSlot(lex.nouns, cjk);
  const sep = cjk ? ' ?' : ' ';
  const gap = cjk ? CJK_GAP : WORD_GAP;
  const qGap = cjk ? CJK_GAP : '';
  const objects = [`${q}(?:${sep}${q}){0,2}${sep}${qGap}${n}`, `${n}(?:${sep}${q}){1,2}`];
  if (lex.strongNouns !== undefined) objects.push(compileSlot(lex.strongNouns, cjk));
  const object = `(?:${objects.join('|')})`;
  const start = cjk ? '' : START;
  const sources = [`${start}${v}${gap}${sep}${object}`];
  if (lex.objectFirst === true || cjk) sources.push(`${start}${object}${gap}${sep}${v}`);
  return sources.map(regex);
}

function revealPattern(lex: Lexicon): RegExp {
  const cjk = lex.cjk === true;
  const verb = compileSlot(lex.revealVerbs, cjk);
  const object = compileSlot(lex.promptObjects, cjk);
  const sep = cjk ? ' ?' : ' ';
  const gap = cjk ? CJK_GAP : '(?: \\S+){0,2}?';
  const start = cjk ? '' : START;
  return regex(lex.objectFirst === true
    ? `${start}(?:${object}${gap}${sep}${verb}|${verb}${gap}${sep}${object})`
    : `${start}${verb}${gap}${sep}${object}`);
}

/**
 * A cheap first test for the override rule: one of its verbs, in any language, anywhere (no word
 * boundaries, so squeezed text passes too). Most texts fail it and skip the seventeen patterns.
 */
const OVERRIDE_VERBS = new RegExp(
  [...LEXICONS.map((l) => l.verbs.split('|').map((v) => compileAlternative(v.replace(/\*$/, ''), true)).join('|')), 'oublie', 'ignore'].join('|'),
);

const OTHER = LEXICONS.filter((l) => l.lang !== 'en' && l.lang !== 'fr');
const NAMES = LEXICONS.map((l) => l.lang).join(', ');

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

const INJECTION: PatternRule[] = [
  {
    id: 'injection.override',
    kind: 'phrase',
    description: `Asks the model to drop earlier or system instructions (${NAMES})`,
    needs: OVERRIDE_VERBS,
    patterns: [
      ...LEXICONS.flatMap(overridePatterns),
      /\b(?:ignore|disregard|forget) (?:all|everything)(?: of)?(?: the| your| my)? (?:instructions?|prompts?|directives?|guidelines|you (?:were|have been) told)\b/gi,
      /\b(?:oublie[rsz]?|ignore[rsz]?) tout ce qu(?:e|')(?: ?on)? (?:t'a|vous a|t'avait|vous avait) (?:dit|demande)/gi,
      SQUEEZED.override,
    ],
  },
  {
    id: 'injection.system-prompt',
    kind: 'phrase',
    description: `Tries to read out or replace the system prompt (${NAMES})`,
    patterns: [
      ...LEXICONS.map(revealPattern),
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
    patterns: [
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
      ...OTHER.flatMap((lex) => lex.redefine.map((entry) => regex(compileEntry(entry, lex.cjk === true)))),
      SQUEEZED.redefine,
    ],
  },
  {
    id: 'injection.role-marker',
    kind: 'token',
    description:
      'Chat-template turns (ChatML, Llama 2 and 3, Gemma, Mistral, Phi, DeepSeek, Harmony, Command-R, legacy Human/Assistant, system headings): a marker that opens a turn for a role and gives it content; a marker named in prose or a template with placeholders passes',
    patterns: [
      // A turn opened for a role and given content: on the next line, or three words or more up to a closing token.
      new RegExp(`${TURN_OPEN}[ \\t]*\\r?\\n\\s*${CONTENT}`, 'gi'),
      new RegExp(`${TURN_OPEN}[ \\t]*${WORDS}[^\\n]*?${TURN_CLOSE}`, 'gi'),
      /<\|START_OF_TURN_TOKEN\|>\s*<\|(?:SYSTEM|USER|CHATBOT)_TOKEN\|>\s*(?![{<[…]|\.\.\.)\S/gi,
      // Llama 2 and Mistral: three words or more inside a pair, or a block opened at the start of a line.
      /\[(INST|SYSTEM_PROMPT)\][ \t]*(?:\r?\n\s*)?(?:[^\s[\]]+\s+){2,}[^\n]*?\[\/\1\]/gi,
      /<{2}SYS>{2}\s*(?:[^\s<>]+\s+){2,}[^\n]*?(?:<<\/SYS>>|$)/g,
      /^[ \t]*(?:\[INST\]|\[SYSTEM_PROMPT\]|<{2}SYS>{2})[ \t]*(?![{<[…]|\.\.\.)\S/gim,
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
    patterns: [
      new RegExp(`^[ \\t>]*\\[\\/?ENGRAM_MEMORY\\b[^\\n\\]]*\\]?${AFTER}${SYSTEM_CUE}`, 'gim'),
      new RegExp(`^[ \\t>]*-{2,} ?ITEM \\d+ ?\\/ ?\\d+ \\[[^\\]\\n]*\\] ?-{2,}${AFTER}${SYSTEM_CUE}`, 'gim'),
      new RegExp(`^[ \\t>]*(?:-{3}|={3}|#{1,3})[ \\t]*(?:end of (?:memory|memories|context|retrieved (?:context|memory))|memory (?:block )?ends?)\\b[^\\n]*${AFTER}${SYSTEM_CUE}`, 'gim'),
    ],
  },
  {
    id: 'injection.addressed',
    kind: 'phrase',
    description: 'Speaks to an AI that reads the text (a conditional on being an AI, AI agents told what to do with the page, notes headed to an AI), in several languages',
    patterns: [
      /\bif you are an? (?:ai|a\.i\.|llm|large language model|language model|ai (?:assistant|agent|model)|assistant|chatbot|bot|agent)\b/gi,
      /\b(?:ai|llm|gpt|claude|chatgpt)s?(?: (?:assistants?|agents?|models?|crawlers?|bots?|systems?))? (?:reading|processing|parsing|summari[sz]ing|analy[sz]ing|browsing|visiting|scraping) this\b/gi,
      /\b(?:note|message|instructions?|attention|important|reminder) (?:to|for) (?:the |any |all )?(?:ai|llm|gpt|claude|chatgpt|language model|ai (?:assistant|agent|model))s?\s*[:,!-]/gi,
      /\bsi (?:eres|es|tu es|vous etes|sei) (?:una? |l')?(?:ia|ai|llm|asistente|assistant|assistente|modelo de lenguaje|modele de langage)\b/gi,
      /\bwenn du (?:eine|ein) (?:ki|llm|sprachmodell|ki-assistent)\b/gi,
      /\bse (?:voce|você) (?:e|é) (?:uma?|o|a) (?:ia|llm|assistente)\b/gi,
      regex(compileEntry('если_ты|если_вы ии|ассистент|языковая_модель|нейросеть|бот')),
      regex(compileEntry('如果你是 一个|一個? ai|人工智能|助手|大模型|语言模型|語言模型', true)),
    ],
  },
  {
    id: 'injection.hidden-directive',
    kind: 'phrase',
    description:
      'An instruction to an AI inside a hidden place: HTML comment, hidden element, code comment, front matter, link title, alt text, details block',
    needs: new RegExp(`^${HIDDEN_MARK}`),
    patterns: [
      regex(`${START}${compileSlot(ADDRESSEES)}[,:;!-]?(?: \\S+){0,3}? ?${compileSlot(DIRECTIVES)}`),
    ],
  },
].map((rule) => ({ ...rule, group: 'injection', action: 'reject' }) as PatternRule);

/** `"key": "value"` pairs, single or double quoted. */
const NAME_KEY = '["\'](?:name|tool|function|tool_name|toolName|function_name|recipient_name)["\']\\s*:\\s*["\'][\\w.:/-]{1,100}["\']';
const ARGS_KEY = '["\'](?:arguments|parameters|input|args|params|tool_input|kwargs)["\']\\s*:\\s*(?=[{"\'[])';
/** Within one flat stretch of an object (no braces between the keys). */
const SAME_OBJECT = '[^{}]{0,400}?';

const INSTRUCTION: PatternRule[] = [
  {
    id: 'instruction.tool-call-markup',
    kind: 'token',
    description: 'Tool-invocation markup (function_calls, invoke, tool_call, tool_use, tools, function tags, parameter tags)',
    patterns: [
      /<\/?(?:[a-z]+:)?(?:function_calls|function_call|tool_calls?|tool_use|tool_result|tool_response|tools|invoke)\b[^>]{0,200}>/gi,
      /<(?:[a-z]+:)?parameter\s+name=["'][^"']{1,100}["']\s*>/gi,
      /<function=[\w.-]{1,100}>/gi,
    ],
  },
  {
    id: 'instruction.tool-call-json',
    kind: 'token',
    description: 'Raw tool-call JSON payloads in any key order (tool_calls, function_call, tool_use blocks, objects with a tool name and its arguments) standing on their own line, not quoted in a sentence',
    patterns: [
      /["'](?:tool_calls|function_call|functionCall|tool_use_id|tool_call_id|toolUse|toolCall)["']\s*:/g,
      /["']type["']\s*:\s*["'](?:tool_use|tool_call|function_call|tool_result)["']/g,
      new RegExp(`${NAME_KEY}${SAME_OBJECT}${ARGS_KEY}`, 'g'),
      new RegExp(`${ARGS_KEY}(?:[^{}]|\\{[^{}]{0,400}\\}){0,400}?${NAME_KEY}`, 'g'),
    ],
    accept: standsAlone,
  },
  {
    id: 'instruction.chat-role-json',
    kind: 'token',
    description: 'Chat messages as JSON whose role is system, developer, assistant or tool, standing on their own line',
    patterns: [/["']role["']\s*:\s*["'](?:system|developer|assistant|tool|model)["']/g],
    accept: standsAlone,
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
  {
    id: 'instruction.exfiltrate',
    kind: 'phrase',
    description: 'Orders the agent to send secrets, memory or the conversation to an outside address, or to load an image whose address carries data',
    patterns: [
      /\b(?:send|post|upload|exfiltrate|email|forward|leak|transmit|copy|pipe|curl|paste) (?:\S+ ){0,4}?(?:secrets?|credentials?|api keys?|tokens?|passwords?|env(?:ironment)? (?:variables|vars)|\.env|ssh keys?|private keys?|conversation|chat history|memories|memory|system prompt|database(?: dump)?|cookies|session) (?:\S+ ){0,4}?to (?:https?:\/\/|ftp:\/\/|\S+@\S+\.\w+|the (?:following|this|attacker|external|remote) (?:url|address|endpoint|webhook|server|email)|(?:my|our|this) (?:webhook|server|endpoint))/gi,
      /!\[[^\]]{0,100}\]\(https?:\/\/[^)\s]{1,300}[?&][\w-]{1,40}=(?:\{|\$\{|%7B|<|\[)[^)]{0,300}\)/gi,
      regex(`${compileEntry('envia|envie|envoie|envoyez|sende|senden_sie|invia|отправь|отправьте|wyślij|stuur|gönder|kirim … secretos|segredos|secrets|geheimnisse|segreti|credenciales|credenciais|identifiants|zugangsdaten|credenziali|пароли|секреты|ключи|hasła|wachtwoorden|şifreleri|kata_sandi|contrasenas|senhas|mots_de_passe|passwörter|password … a|para|à|an|на|do|naar|ke')} ?https?:\\/\\/`),
    ],
  },
].map((rule) => ({ ...rule, group: 'instruction', action: 'reject' }) as PatternRule);

/** Who a standing order is addressed to: the assistant itself, not a team. */
const ASSISTANT_BEHAVIOUR = '(?:respond|reply|answer|greet|address|tell|say|sign|format|write (?:your|the) (?:answers?|replies|responses)|call the user|refer to|recommend|suggest|mention (?:to the user|in (?:your|every) (?:answers?|replies|responses))|use (?:a |an )?(?:formal|informal|friendly|polite|casual) (?:tone|register)|speak|talk|obey|trust|comply|agree|apologi[sz]e|praise|refuse|include (?:a |an |the )?\\S+ in (?:your|every) (?:answers?|replies|responses))';

const SELF_INSTRUCTION: PatternRule[] = [
  {
    id: 'self-instruction.remember',
    description: 'Standing orders to the assistant to remember or never forget how to answer (English and French); team conventions pass',
    patterns: [
      new RegExp(`\\b(?:always|never) (?:remember|forget) to (?:always )?${ASSISTANT_BEHAVIOUR}\\b`, 'gi'),
      new RegExp(`\\bremember to always ${ASSISTANT_BEHAVIOUR}\\b`, 'gi'),
      new RegExp(`\\bmake sure (?:to |you )?always ${ASSISTANT_BEHAVIOUR}\\b`, 'gi'),
      /\b(?:you|the assistant|the agent|the model|claude) (?:should |must )?(?:always|never) (?:remember|forget) (?:to|that)\b/gi,
      /\b(?:souviens-toi|rappelle-toi|souvenez-vous|rappelez-vous) (?:toujours )?(?:de (?:repondre|toujours repondre|me|nous)|que (?:tu|vous) (?:dois|devez))/gi,
      /\bn'oublie(?:z)? (?:jamais|pas) de (?:repondre|toujours repondre|me (?:repondre|tutoyer|vouvoyer))/gi,
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

/** Rejected: an instruction to the model (override, redefinition, markers, hidden orders). */
export const INJECTION_RULES: readonly PatternRule[] = INJECTION;
/**
 * A JSON payload counts when it stands on its own: the outermost object or array holding the
 * match opens its line (after indentation, list markers or other brackets). JSON quoted inside a
 * sentence is a note about a format, and the phrase rules still read what it says.
 */
function standsAlone(m: RegExpExecArray): boolean {
  const text = m.input;
  let depth = 0;
  let open = -1;
  for (let i = m.index - 1; i >= Math.max(0, m.index - 2000); i--) {
    const c = text[i];
    if (c === '}' || c === ']') depth++;
    else if (c === '{' || c === '[') {
      if (depth === 0) open = i;
      else depth--;
    }
  }
  if (open < 0) return true;
  const lineStart = text.lastIndexOf('\n', open) + 1;
  return /^[\s\-*>,[{(]*$/.test(text.slice(lineStart, open));
}

/** Rejected: tool-call payloads, run-now and exfiltration orders. */
export const INSTRUCTION_RULES: readonly PatternRule[] = INSTRUCTION;
/** Quarantined: standing orders to the assistant about its own behaviour. */
export const SELF_INSTRUCTION_RULES: readonly PatternRule[] = SELF_INSTRUCTION;
