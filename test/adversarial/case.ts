/**
 * The shape shared by the generated adversarial corpus (secrets, injections, benign look-alikes):
 * each generator module exports a function returning these cases, built at run time from pieces
 * and seeded random characters so that no source file holds a literal secret or injection.
 */
export type CaseKind = 'secret' | 'injection' | 'benign';

export interface AdversarialCase {
  kind: CaseKind;
  /** The class a rate is reported for: a credential format, an injection family, a benign kind. */
  class: string;
  /** How the payload was wrapped or hidden (`plain`, `url-encoded`, `html-comment`, `zh`…). */
  wrapping: string;
  /** The text given to the write path. */
  text: string;
  /** For secrets: the secret value itself, to check that no 12-character piece is stored or shown. */
  secret?: string;
  /** A wrapping the goals exempt (e.g. reversed text); still measured and reported. */
  exotic?: boolean;
}

/** A small deterministic PRNG (mulberry32), so a corpus is the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` characters drawn from `alphabet` with `random`. */
export function randomChars(random: () => number, length: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}
