/**
 * The token estimator of the seeds: one token per four characters (UTF-16 code units), rounded
 * up. Crude but stable and model-independent; a budget is never exceeded by this measure.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
