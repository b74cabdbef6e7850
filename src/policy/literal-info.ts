/**
 * The algebra of required literals (literals.ts reads a pattern with it): what a part of a pattern
 * can match — all its strings when they are few (`exact`), and a list of strings one of which
 * every match contains (`req`) — for a sequence, an alternation and a repetition of parts. An
 * unknown part is {@link ANY}: it requires nothing. Pure.
 */

/** At most this many strings are kept for one part of a pattern (alternatives multiply). */
export const MAX_STRINGS = 64;
/** A class of at most this many characters is read as its characters (`[._-]`), a larger one as any. */
export const MAX_CLASS = 8;

/** What a part of a pattern can match: every string (`exact`, when few), and what it cannot match without (`req`). */
export interface Info {
  /** All the strings it can match, when they are at most {@link MAX_STRINGS}. */
  exact?: string[];
  /** One of these occurs in every match; undefined: none known. */
  req?: string[];
}

export const ANY: Info = {};
export const EMPTY: Info = { exact: [''] };

/** The literals a set of candidate requirements is best represented by: the longest shortest string. */
function better(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const shortest = (list: string[]) => Math.min(...list.map((s) => s.length));
  const [sa, sb] = [shortest(a), shortest(b)];
  if (sa !== sb) return sa > sb ? a : b;
  return a.length <= b.length ? a : b;
}

/** A requirement from exact strings: none when one of them is empty. */
export function asReq(exact: string[] | undefined): string[] | undefined {
  return exact === undefined || exact.includes('') ? undefined : exact;
}

function product(a: string[], b: string[]): string[] | undefined {
  if (a.length * b.length > MAX_STRINGS) return undefined;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return [...out];
}

export function sequence(items: Info[]): Info {
  let current: string[] | undefined = [''];
  let exact = true;
  let req: string[] | undefined;
  for (const item of items) {
    const joined: string[] | undefined
      = current !== undefined && item.exact !== undefined ? product(current, item.exact) : undefined;
    if (joined !== undefined) {
      current = joined;
      continue;
    }
    exact = false;
    req = better(req, asReq(current));
    req = better(req, item.req ?? asReq(item.exact));
    current = item.exact ?? [''];
  }
  if (exact) return { exact: current, req: asReq(current) };
  return { req: better(req, asReq(current)) };
}

export function alternation(branches: Info[]): Info {
  const all = new Set<string>();
  let exact = true;
  for (const b of branches) {
    if (b.exact === undefined) exact = false;
    else for (const s of b.exact) all.add(s);
  }
  if (exact && all.size <= MAX_STRINGS) return { exact: [...all], req: asReq([...all]) };
  const req = new Set<string>();
  for (const b of branches) {
    const r = b.req ?? asReq(b.exact);
    if (r === undefined) return ANY;
    for (const s of r) req.add(s);
  }
  return { req: [...req] };
}

export function repeat(atom: Info, min: number, max: number): Info {
  if (min === 0) return max === 1 && atom.exact !== undefined ? { exact: ['', ...atom.exact] } : ANY;
  if (min === max && atom.exact !== undefined) {
    let out: string[] | undefined = [''];
    for (let i = 0; i < min && out !== undefined; i++) out = product(out, atom.exact);
    if (out !== undefined) return { exact: out, req: asReq(out) };
  }
  return { req: atom.req ?? asReq(atom.exact) };
}
