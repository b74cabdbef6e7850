/**
 * A text as written, with only the differences that never carry meaning removed: line endings
 * (CRLF, CR), spaces and tabs at line ends, runs of blank lines, and blank lines at either end.
 * Case, punctuation, Unicode forms, list markers, indentation and spaces inside a line are kept:
 * `Prod-Assets` and `prod-assets`, `2³` and `23`, `v1.2?` and `v1.2.`, `-F'  '` and `-F' '` are
 * different texts.
 */
export function canonicalText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}
