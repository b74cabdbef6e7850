/**
 * English and French stopwords dropped from full-text queries: they match nearly every document
 * and only dilute BM25. Kept short on purpose; words that carry meaning in a memory (not, no,
 * pas) are not in it.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its '
    + 'me my of on or our so than that the their them then there these they this to was we were what when where '
    + 'which who whom why will with would you your '
    + 'au aux avec ce ces comment dans de des du elle en est et eux il ils je la le les leur lui ma mais me mes '
    + 'nous on ou par pour quand que qui sa se ses son sont sur ta te tes toi ton tu un une vos votre vous y'
  ).split(' '),
);
