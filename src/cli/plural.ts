/** `1 file`, `2 files`: a count with its noun, in the plural unless it is one. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
