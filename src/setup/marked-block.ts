/**
 * A block of lines engram owns inside a text file (an instructions section in Markdown, a table in
 * TOML), found by its begin and end marker lines, compared line by line, never by pattern. Added
 * at the end of the file after one line break, so removing it with the line break before it gives
 * back the file's bytes: `X\n` becomes `X\n\nBLOCK` (a blank line between), `X` becomes `X\nBLOCK`.
 */
import { lineEnding } from './json-edit.js';

/** The first and last line of a block (whole lines). */
export interface Markers {
  begin: string;
  end: string;
}

/** Where a block lies: from the start of its begin line to the end of its end line (its line break included). */
interface Span {
  start: number;
  end: number;
}

/** The span of the block, when both markers are there in order. */
function findBlock(text: string, markers: Markers): Span | undefined {
  let offset = 0;
  let start: number | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const next = Math.min(offset + raw.length + 1, text.length);
    if (start === undefined && line === markers.begin) start = offset;
    else if (start !== undefined && line === markers.end) return { start, end: next };
    offset = next;
  }
  return undefined;
}

/** The block's text, markers included, or undefined. */
export function blockText(text: string, markers: Markers): string | undefined {
  const span = findBlock(text, markers);
  return span === undefined ? undefined : text.slice(span.start, span.end);
}

/** The block as the file would hold it: the lines between the markers, in the file's line ending. */
export function renderBlock(lines: readonly string[], markers: Markers, eol: string): string {
  return [markers.begin, ...lines, markers.end].join(eol) + eol;
}

/**
 * `text` with the block holding `lines`: appended when absent, replaced in place when it differs,
 * unchanged when it is already there.
 *
 * @example
 * addBlock('# Notes\n', ['hello'], { begin: '<!-- b -->', end: '<!-- e -->' });
 * // '# Notes\n\n<!-- b -->\nhello\n<!-- e -->\n'
 */
export function addBlock(text: string, lines: readonly string[], markers: Markers): string {
  const eol = lineEnding(text);
  const block = renderBlock(lines, markers, eol);
  const span = findBlock(text, markers);
  if (span !== undefined) {
    // A block at the very end may lack its final line break; keep the file's ending as it is.
    const current = text.slice(span.start, span.end);
    const replacement = current.endsWith('\n') ? block : block.slice(0, -eol.length);
    return text.slice(0, span.start) + replacement + text.slice(span.end);
  }
  return text === '' ? block : `${text}${eol}${block}`;
}

/** `text` without the block and the one line break before it; unchanged when there is no block. */
export function removeBlock(text: string, markers: Markers): string {
  const span = findBlock(text, markers);
  if (span === undefined) return text;
  const before = text.slice(0, span.start);
  const eol = before.endsWith('\r\n') ? '\r\n' : before.endsWith('\n') ? '\n' : '';
  return before.slice(0, before.length - eol.length) + text.slice(span.end);
}
