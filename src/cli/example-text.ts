/** The example block of a command's --help; apart from options.ts, which loads commander. */

/** Appends an example block to a command's --help. */
export function exampleText(...lines: string[]): string {
  return `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
