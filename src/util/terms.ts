/** Normalises tag and entity lists: trimmed, lowercase, empty ones dropped, first occurrence kept. */
export function normaliseTerms(values: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const term = value.trim().toLowerCase();
    if (term !== '') seen.add(term);
  }
  return [...seen];
}

/** Splits comma-separated CLI values (`--tags a,b --tags c`) into one list. */
export function splitCommaList(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(','));
}
