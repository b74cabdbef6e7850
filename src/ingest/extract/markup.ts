/**
 * HTML and XML to text: scripts, styles and comments dropped, block elements become lines, table
 * cells are separated by a tab with one row per line. Entities are decoded as a browser decodes
 * them (every HTML5 named reference, in its own case, and numeric references) by `entities`.
 */
import { decodeHTML, decodeXML } from 'entities';
import type { Extracted } from './index.js';
import { decodeText } from './text.js';

const BLOCK = /<\/?(?:p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|tr|table|thead|tbody|tfoot|caption|section|article|header|footer|nav|aside|main|pre|blockquote|figure|figcaption|form|fieldset|address|details|summary)\b[^>]*>/gi;
/** Marks the end of a table cell until the lines are cleaned; never in decoded text (stripped first). */
const CELL_END = '\u0001';
const XML_EXTENSIONS = new Set(['xml', 'xsd', 'xsl', 'xslt', 'plist', 'rss', 'atom']);

/** One line of text: HTML white space collapsed, table cells joined by tabs (trailing empties dropped). */
function cleanLine(line: string): string {
  const cells = line.split(CELL_END).map((cell) => cell.replace(/[ \t\u00a0\r]+/g, ' ').trim());
  if (cells.length === 1) return cells[0] ?? '';
  while (cells.length > 1 && cells[cells.length - 1] === '') cells.pop();
  return cells.join('\t');
}

/**
 * A table as lines: one row per line, cells ended by {@link CELL_END}; the white space and block
 * elements inside it (a `<p>` or `<br>` in a cell) stay on the row.
 */
function tableLines(table: string): string {
  const rows = table
    .replace(/\s+/g, ' ')
    .replace(/<\/t[dh]\s*>/gi, CELL_END)
    .replace(/<tr\b[^>]*>/gi, '\n')
    .replace(BLOCK, ' ');
  return `\n${rows}\n`;
}

export function extractMarkup(bytes: Uint8Array, ext: string): Extracted {
  const decoded = decodeText(bytes);
  const html = !XML_EXTENSIONS.has(ext);
  const decode = html ? decodeHTML : decodeXML;
  let source = decoded.text.replace(/<!--[\s\S]*?-->/g, '').replaceAll(CELL_END, '');
  let title: string | undefined;
  if (html) {
    title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(source)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(source)?.[1];
    source = source
      .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<table\b[\s\S]*?<\/table\s*>/gi, tableLines)
      .replace(/<li\b[^>]*>/gi, '\n- ')
      .replace(BLOCK, '\n');
  } else {
    source = source.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1').replace(/<\/[^>]+>/g, '\n');
  }
  const text = decode(source.replace(/<[^>]*>/g, html ? '' : ' '))
    .split('\n')
    .map(cleanLine)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const clean = title === undefined ? undefined : decode(title.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
  return { text: text === '' ? '' : `${text}\n`, ...(clean ? { title: clean } : {}), ...(decoded.note ? { note: decoded.note } : {}) };
}
