/**
 * A text as written, with only the differences that never carry meaning removed: line endings
 * (CRLF, CR), spaces and tabs at line ends, runs of spaces inside a line (indentation is kept),
 * runs of blank lines, and blank lines at either end. Case, punctuation, Unicode forms, list
 * markers and indentation are kept: `Prod-Assets` and `prod-assets`, `2³` and `23`, `v1.2?` and
 * `v1.2.` are different texts.
 */
export function canonicalText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)?.[0] ?? '';
      return indent + line.slice(indent.length).replace(/[ \t]+/g, ' ').trimEnd();
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}
