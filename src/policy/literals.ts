/**
 * The literal strings a regular expression cannot match without: {@link requiredLiterals} reads a
 * pattern's source and returns a list of strings such that every match of the pattern contains at
 * least one of them (or `undefined` when no such list is known: a pattern that can match without
 * any fixed text). The policy's screen (screen.ts) uses it to skip, for a text, every rule none of
 * whose literals the text contains — the rule could not have matched there.
 *
 * The answer must never miss a match, so the reading is conservative: what it does not model
 * (backreferences, large classes, `.`, Unicode case folding) counts as "any text", which only
 * ever makes the list shorter or `undefined`. A case-insensitive pattern's literals are given in
 * upper case (`toUpperCase`) and must be looked for in the upper-cased text: two characters the
 * `i` flag treats as equal have the same upper case (ECMAScript's Canonicalize, non-Unicode
 * mode). Pure; no I/O.
 */
import { alternation, ANY, asReq, EMPTY, type Info, MAX_CLASS, repeat, sequence } from './literal-info.js';

/** Reads a pattern source (the subset of ECMAScript syntax the rules use; anything else reads as any text). */
class Reader {
  private at = 0;

  constructor(private readonly source: string, private readonly unicode: boolean) {}

  parse(): Info {
    const info = this.disjunction();
    return this.at === this.source.length ? info : ANY;
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }

  private disjunction(): Info {
    const branches = [this.alternative()];
    while (this.peek() === '|') {
      this.at++;
      branches.push(this.alternative());
    }
    return branches.length === 1 ? (branches[0] as Info) : alternation(branches);
  }

  private alternative(): Info {
    const items: Info[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return sequence(items);
  }

  private quantified(atom: Info): Info {
    const c = this.peek();
    let range: [number, number] | undefined;
    if (c === '*') range = [0, Infinity];
    else if (c === '+') range = [1, Infinity];
    else if (c === '?') range = [0, 1];
    if (range !== undefined) this.at++;
    else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.at));
      if (m === null) return atom;
      this.at += m[0].length;
      const min = Number(m[1]);
      range = [min, m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])];
    } else return atom;
    if (this.peek() === '?') this.at++;
    return repeat(atom, range[0], range[1]);
  }

  private atom(): Info {
    const c = this.peek() as string;
    this.at++;
    if (c === '^' || c === '$') return EMPTY;
    if (c === '.') return ANY;
    if (c === '(') return this.group();
    if (c === '[') return this.cls();
    if (c === '\\') return this.escape();
    // A surrogate pair is one character in Unicode mode (a quantifier repeats both halves).
    const code = c.charCodeAt(0);
    if (this.unicode && code >= 0xd800 && code <= 0xdbff) {
      const low = this.source.charCodeAt(this.at);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.at++;
        return { exact: [c + String.fromCharCode(low)], req: [c + String.fromCharCode(low)] };
      }
    }
    return { exact: [c], req: [c] };
  }

  private group(): Info {
    let lookaround = false;
    if (this.source.startsWith('?:', this.at)) this.at += 2;
    else if (/^\?<?[=!]/.test(this.source.slice(this.at, this.at + 3))) {
      lookaround = true;
      this.at += this.source[this.at + 1] === '<' ? 3 : 2;
    } else if (this.source.startsWith('?<', this.at)) {
      const end = this.source.indexOf('>', this.at);
      if (end < 0) return this.fail();
      this.at = end + 1;
    } else if (this.peek() === '?') return this.fail();
    const inner = this.disjunction();
    if (this.peek() !== ')') return this.fail();
    this.at++;
    // A lookaround matches no text of its own.
    return lookaround ? EMPTY : inner;
  }

  /** Gives up on the rest of the pattern: any text. */
  private fail(): Info {
    this.at = this.source.length + 1;
    return ANY;
  }

  /** One character of a class or escape as its code unit string, or undefined for a set (`\d`, `\p{…}`). */
  private classEscape(inClass: boolean): string | undefined | null {
    const c = this.source[this.at] ?? '';
    this.at++;
    // A legacy octal escape (`\012`) is not modelled.
    if (c === '0' && /\d/.test(this.peek() ?? '')) return null;
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', 0: '\0' };
    if (c in simple) return simple[c];
    if (inClass && c === 'b') return '\b';
    if (c === 'x') {
      const m = /^[0-9a-fA-F]{2}/.exec(this.source.slice(this.at));
      if (m === null) return 'x';
      this.at += 2;
      return String.fromCharCode(parseInt(m[0], 16));
    }
    if (c === 'u') {
      const braced = this.unicode ? /^\{([0-9a-fA-F]+)\}/.exec(this.source.slice(this.at)) : null;
      if (braced !== null) {
        this.at += braced[0].length;
        return String.fromCodePoint(parseInt(braced[1] as string, 16));
      }
      const m = /^[0-9a-fA-F]{4}/.exec(this.source.slice(this.at));
      if (m === null) return 'u';
      this.at += 4;
      return String.fromCharCode(parseInt(m[0], 16));
    }
    if (c === 'p' || c === 'P') {
      if (this.peek() === '{') this.at = this.source.indexOf('}', this.at) + 1 || this.source.length;
      return null;
    }
    if ('dDwWsS'.includes(c)) return null;
    if (c === 'c') return null;
    if (/[1-9]/.test(c) || c === 'k' || c === 'B' || c === 'b') return undefined;
    return c;
  }

  private escape(): Info {
    const c = this.peek();
    if (c === 'b' || c === 'B') {
      this.at++;
      return EMPTY;
    }
    if (c !== undefined && /[1-9]/.test(c)) {
      while (/\d/.test(this.peek() ?? '')) this.at++;
      return ANY;
    }
    if (c === 'k') {
      const end = this.source.indexOf('>', this.at);
      this.at = end < 0 ? this.source.length : end + 1;
      return ANY;
    }
    const ch = this.classEscape(false);
    return typeof ch === 'string' ? { exact: [ch], req: [ch] } : ANY;
  }

  private cls(): Info {
    const negated = this.peek() === '^';
    if (negated) this.at++;
    const chars = new Set<string>();
    let large = negated;
    for (;;) {
      const c = this.peek();
      if (c === undefined) return this.fail();
      if (c === ']') {
        this.at++;
        break;
      }
      const from = this.classAtom();
      if (this.peek() === '-' && this.source[this.at + 1] !== ']' && this.source[this.at + 1] !== undefined) {
        this.at++;
        const to = this.classAtom();
        if (typeof from !== 'string' || typeof to !== 'string') {
          large = true;
          continue;
        }
        const [a, b] = [from.codePointAt(0) ?? 0, to.codePointAt(0) ?? 0];
        if (b - a + 1 > MAX_CLASS) large = true;
        else for (let x = a; x <= b; x++) chars.add(String.fromCodePoint(x));
        continue;
      }
      if (typeof from === 'string') chars.add(from);
      else large = true;
    }
    if (large || chars.size > MAX_CLASS || chars.size === 0) return ANY;
    return { exact: [...chars], req: [...chars] };
  }

  private classAtom(): string | null | undefined {
    const c = this.peek() as string;
    this.at++;
    if (c === '\\') return this.classEscape(true);
    const code = c.charCodeAt(0);
    if (this.unicode && code >= 0xd800 && code <= 0xdbff) {
      const low = this.source.charCodeAt(this.at);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.at++;
        return c + String.fromCharCode(low);
      }
    }
    return c;
  }
}

/** A pattern's literals and where to look for them. */
export interface Literals {
  /** One of these occurs in every match. */
  strings: string[];
  /** `upper`: look in the upper-cased text (the pattern ignores case). */
  fold: 'none' | 'upper';
}

/**
 * The literals every match of `pattern` contains one of, or undefined when it has none known.
 *
 * @example
 * requiredLiterals(/\bpretend (?:that )?you are\b/gi); // { strings: ['PRETEND '], fold: 'upper' } or longer
 */
export function requiredLiterals(pattern: RegExp): Literals | undefined {
  const ignoreCase = pattern.flags.includes('i');
  const unicode = pattern.flags.includes('u') || pattern.flags.includes('v');
  // Unicode case folding (`iu`) equates characters that upper case does not (the Kelvin sign and k).
  if (pattern.flags.includes('v') || (ignoreCase && unicode)) return undefined;
  const info = new Reader(pattern.source, unicode).parse();
  const req = info.req ?? asReq(info.exact);
  if (req === undefined || req.length === 0) return undefined;
  return ignoreCase
    ? { strings: [...new Set(req.map((s) => s.toUpperCase()))], fold: 'upper' }
    : { strings: req, fold: 'none' };
}
