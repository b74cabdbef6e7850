/**
 * The text similarity behind the loop's `fixed_point` (two answers in a row) and `query_cycle`
 * (a proposed query against those already run). Deterministic, no model, any script:
 *
 *   normalise(t) = NFKC, lower case, every run of characters that are neither letters nor digits
 *                  replaced by one space, trimmed
 *   grams(t)     = the counts of the character trigrams of ` normalise(t) ` (code points, one
 *                  space of padding on each side, so a one-letter word still has a trigram)
 *   sim(a, b)    = cos(grams(a), grams(b)) = Σ a_g·b_g / (‖a‖·‖b‖), in [0, 1]
 *
 * Two texts that normalise to the empty string are identical (1); one empty and one not, 0.
 * Trigrams see word order locally (unlike a bag of words) and survive small edits, reflowed
 * lines, punctuation and case, which is what "the model keeps giving the same answer" looks like.
 */

/** The text the similarity compares: NFKC, lower case, punctuation and spacing folded. */
export function normaliseForSimilarity(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function trigrams(text: string): Map<string, number> {
  const chars = Array.from(` ${text} `);
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= chars.length; i++) {
    const gram = chars.slice(i, i + 3).join('');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function norm(counts: Map<string, number>): number {
  let sum = 0;
  for (const n of counts.values()) sum += n * n;
  return Math.sqrt(sum);
}

/**
 * The cosine similarity of the character trigrams of two texts, after normalisation.
 *
 * @example
 * textSimilarity('Tokens expire after 1 hour.', 'tokens expire after 1 hour') // 1
 */
export function textSimilarity(a: string, b: string): number {
  const na = normaliseForSimilarity(a);
  const nb = normaliseForSimilarity(b);
  if (na === '' || nb === '') return na === nb ? 1 : 0;
  if (na === nb) return 1;
  const ga = trigrams(na);
  const gb = trigrams(nb);
  const [small, large] = ga.size <= gb.size ? [ga, gb] : [gb, ga];
  let dot = 0;
  for (const [gram, n] of small) dot += n * (large.get(gram) ?? 0);
  return Math.min(1, dot / (norm(ga) * norm(gb)));
}

/**
 * The query already run that `query` repeats, if any: equal once normalised, or at least
 * `threshold` similar. Undefined when the query is new.
 */
export function repeatedQuery(query: string, tried: readonly string[], threshold: number): string | undefined {
  const normalised = normaliseForSimilarity(query);
  return tried.find((previous) =>
    normaliseForSimilarity(previous) === normalised || textSimilarity(query, previous) >= threshold);
}
