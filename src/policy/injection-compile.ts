/**
 * Compiling the phrase lexicons of `injection-lexicon.ts` (seventeen languages) into the regular
 * expression sources of the injection rules (`injection.ts`): slots, stems, word gaps and word
 * boundaries over the folded, lower-cased phrase views, CJK without spaces. This runs at build
 * time: `npm run generate:policy` writes {@link injectionSources} to
 * `injection-sources.generated.ts`, which the rules read, so that no process compiles the lexicon
 * (test/policy-generated.test.ts fails when that file is stale).
 */
import { foldPhrases, normalise } from './normalize.js';
import { ADDRESSEES, DIRECTIVES, LEXICONS, type Lexicon } from './injection-lexicon.js';

/**
 * Letters and digits of the scripts the lexicons use (the phrase views are folded and lower case).
 * A short list of ranges rather than `\p{L}`: the expressions stay small and compile fast.
 */
const LETTER = '0-9a-z\\u00DF-\\u024F\\u0370-\\u03FF\\u0400-\\u052F\\u0600-\\u06FF\\u0900-\\u0963\\u0966-\\u097F\\u1100-\\u11FF\\u3040-\\u30FF\\u3400-\\u9FFF\\uAC00-\\uD7AF';
/** A word starts here: no letter of the lexicons' scripts just before. */
export const START = `(?<![${LETTER}])`;
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

/** Verb … (qualifiers + noun | noun + qualifiers | strong noun), and the object-first order. */
function overrideSources(lex: Lexicon): string[] {
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
  return sources;
}

/** Reveal verb … prompt object, or the object first where the language puts it there. */
function revealSource(lex: Lexicon): string {
  const cjk = lex.cjk === true;
  const verb = compileSlot(lex.revealVerbs, cjk);
  const object = compileSlot(lex.promptObjects, cjk);
  const sep = cjk ? ' ?' : ' ';
  const gap = cjk ? CJK_GAP : '(?: \\S+){0,2}?';
  const start = cjk ? '' : START;
  return lex.objectFirst === true
    ? `${start}(?:${object}${gap}${sep}${verb}|${verb}${gap}${sep}${object})`
    : `${start}${verb}${gap}${sep}${object}`;
}

/**
 * A cheap first test for the override rule: one of its verbs, in any language, anywhere (no word
 * boundaries, so squeezed text passes too). Most texts fail it and skip the seventeen patterns.
 */
function overrideVerbsSource(): string {
  return [...LEXICONS.map((l) => l.verbs.split('|').map((v) => compileAlternative(v.replace(/\*$/, ''), true)).join('|')), 'oublie', 'ignore'].join('|');
}

/** What the rules need of the lexicons: regular expression sources (flag `g` unless said). */
export interface InjectionSources {
  /** The lexicons' languages, for the rules' descriptions. */
  languages: string;
  /** The override rule's first test (no flags). */
  overrideVerbs: string;
  /** Override patterns, every lexicon. */
  override: string[];
  /** System-prompt extraction, one per lexicon. */
  reveal: string[];
  /** Redefinition phrasings of the lexicons other than English and French. */
  redefine: string[];
  /** The conditional on the reader being an AI, in Russian and in Chinese. */
  addressed: string[];
  /** An order addressed to an AI (in a hidden place). */
  hiddenDirective: string;
  /** "Send the secrets to a URL" in a dozen languages (instructions.ts). */
  exfiltrate: string;
}

/**
 * Every source the injection and instruction rules compile from the lexicons, as
 * `injection-sources.generated.ts` holds it.
 *
 * @example
 * new RegExp(injectionSources().override[0], 'g').test('...'); // the English override pattern
 */
export function injectionSources(): InjectionSources {
  const exfiltrate = compileEntry('envia|envie|envoie|envoyez|sende|senden_sie|invia|отправь|отправьте|wyślij|stuur|gönder|kirim … secretos|segredos|secrets|geheimnisse|segreti|credenciales|credenciais|identifiants|zugangsdaten|credenziali|пароли|секреты|ключи|hasła|wachtwoorden|şifreleri|kata_sandi|contrasenas|senhas|mots_de_passe|passwörter|password … a|para|à|an|на|do|naar|ke');
  return {
    languages: LEXICONS.map((l) => l.lang).join(', '),
    overrideVerbs: overrideVerbsSource(),
    override: LEXICONS.flatMap(overrideSources),
    reveal: LEXICONS.map(revealSource),
    redefine: LEXICONS.filter((l) => l.lang !== 'en' && l.lang !== 'fr')
      .flatMap((lex) => lex.redefine.map((entry) => compileEntry(entry, lex.cjk === true))),
    addressed: [
      compileEntry('если_ты|если_вы ии|ассистент|языковая_модель|нейросеть|бот'),
      compileEntry('如果你是 一个|一個? ai|人工智能|助手|大模型|语言模型|語言模型', true),
    ],
    hiddenDirective: `${START}${compileSlot(ADDRESSEES)}[,:;!-]?(?: \\S+){0,3}? ?${compileSlot(DIRECTIVES)}`,
    exfiltrate: `${exfiltrate} ?https?:\\/\\/`,
  };
}
