/**
 * OpenDocument: text (.odt), presentations (.odp) and spreadsheets (.ods), from content.xml. A
 * spreadsheet's cells keep their columns (repeated and empty cells counted, as LibreOffice writes
 * them compressed), one row per line, dates as ISO dates.
 */
import { ExtractError, type Extracted } from './index.js';
import { MAX_COLUMNS, rowLine } from './spreadsheet-cells.js';
import { readZipEntries } from './zip.js';
import { attribute, xmlText } from './xml-text.js';

const set = (...names: string[]) => new Set(names);

/** How many identical rows a repeated row may stand for in the text (a sheet's filler is empty). */
const MAX_ROW_REPEAT = 1000;

const CELL_TEXT = {
  breakAfter: set('text:p', 'text:h'),
  tab: set('text:tab'),
  lineBreak: set('text:line-break'),
  spaces: { tag: 'text:s', count: 'text:c' },
};

function repeat(attributes: string, name: string, max: number): number {
  const n = Number(attribute(attributes, name) ?? 1);
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : 1;
}

/** A cell's text: a date as its ISO value, anything else as shown (paragraphs joined by spaces). */
function cellText(attributes: string, inner: string): string {
  if (attribute(attributes, 'office:value-type') === 'date') {
    const date = attribute(attributes, 'office:date-value');
    if (date !== undefined) return date.replace(/T00:00:00(?:\.0+)?$/, '');
  }
  return xmlText(inner, CELL_TEXT).trim();
}

function sheetText(name: string, table: string): string {
  const lines: string[] = [];
  for (const row of table.matchAll(/<table:table-row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-row>)/g)) {
    const cells = new Map<number, string>();
    let column = 0;
    const pattern = /<table:(?:covered-)?table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:(?:covered-)?table-cell>)/g;
    for (const cell of (row[2] ?? '').matchAll(pattern)) {
      const attributes = cell[1] ?? '';
      const count = repeat(attributes, 'table:number-columns-repeated', MAX_COLUMNS);
      const text = cellText(attributes, cell[2] ?? '');
      if (text !== '') for (let i = 0; i < count && column + i < MAX_COLUMNS; i++) cells.set(column + i, text);
      column += count;
    }
    const line = rowLine(cells);
    if (line === '') continue;
    lines.push(...Array<string>(repeat(row[1] ?? '', 'table:number-rows-repeated', MAX_ROW_REPEAT)).fill(line));
  }
  return `## ${name}\n${lines.join('\n')}`;
}

export async function extractOpenDocument(bytes: Uint8Array, ext: string): Promise<Extracted> {
  const entries = await readZipEntries(bytes, (name) => name === 'content.xml', ext);
  const xml = entries.get('content.xml');
  if (xml === undefined) throw new ExtractError(`corrupt ${ext} (no content.xml)`);
  const body = /<office:body>([\s\S]*)<\/office:body>/.exec(xml)?.[1] ?? xml;
  let text: string;
  if (ext === 'ods') {
    text = [...body.matchAll(/<table:table\b([^>]*)>([\s\S]*?)<\/table:table>/g)]
      .map((m) => sheetText(attribute(m[1] ?? '', 'table:name') ?? '', m[2] ?? ''))
      .join('\n\n')
      .trim();
  } else {
    text = xmlText(body, {
      breakAfter: set('text:p', 'text:h', 'table:table-row', 'draw:page', 'table:table'),
      tabAfter: set('table:table-cell', 'table:covered-table-cell'),
      tab: set('text:tab'),
      lineBreak: set('text:line-break'),
      spaces: { tag: 'text:s', count: 'text:c' },
    }).trim();
  }
  return { text: text === '' ? '' : `${text}\n` };
}
