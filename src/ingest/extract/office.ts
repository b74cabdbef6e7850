/**
 * Office Open XML: Word (.docx) paragraphs, PowerPoint (.pptx) slides, Excel (.xlsx) sheets (cells
 * at their column, one row per line, date-formatted numbers as ISO dates).
 */
import { ExtractError, type Extracted } from './index.js';
import { numbered, readZipEntries } from './zip.js';
import { columnOf, type DateKind, excelDate, formatKind, rowLine } from './spreadsheet-cells.js';
import { attribute, xmlText } from './xml-text.js';

const set = (...names: string[]) => new Set(names);

function docx(entries: Map<string, string>): string {
  const xml = entries.get('word/document.xml');
  if (xml === undefined) throw new ExtractError('corrupt docx (no word/document.xml)');
  const rules = { textIn: set('w:t', 'w:delText'), breakAfter: set('w:p'), tab: set('w:tab'), lineBreak: set('w:br', 'w:cr'), tabAfter: set('w:tc') };
  const parts = [xml, ...['word/footnotes.xml', 'word/endnotes.xml'].map((n) => entries.get(n) ?? '')];
  return parts.map((p) => xmlText(p, rules)).filter((t) => t.trim() !== '').join('\n');
}

function pptx(entries: Map<string, string>): string {
  const slides = numbered(entries, 'ppt/slides/slide');
  if (slides.length === 0 && !entries.has('ppt/presentation.xml')) throw new ExtractError('corrupt pptx (no slides)');
  const rules = { textIn: set('a:t'), breakAfter: set('a:p'), lineBreak: set('a:br') };
  return slides.map((name) => xmlText(entries.get(name) ?? '', rules).trim()).filter((t) => t !== '').join('\n\n');
}

/** Which style indexes (`s` on a cell) show a date or a time, from `xl/styles.xml`. */
function dateStyles(styles: string): DateKind[] {
  const codes = new Map<number, string>();
  for (const m of styles.matchAll(/<numFmt\b([^>]*)\/?>/g)) {
    const id = Number(attribute(m[1] ?? '', 'numFmtId'));
    const code = attribute(m[1] ?? '', 'formatCode');
    if (Number.isInteger(id) && code !== undefined) codes.set(id, code);
  }
  const xfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  return [...xfs.matchAll(/<xf\b([^>]*)>/g)].map((m) => {
    const id = Number(attribute(m[1] ?? '', 'numFmtId') ?? 0);
    return formatKind(id, codes.get(id));
  });
}

/** Text of a rich or plain string item (`<si>`, `<is>`), phonetic guides left out. */
function stringItem(xml: string): string {
  return xmlText(xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, ''), { textIn: set('t'), breakAfter: set() });
}

/** Cells placed by their reference (`C1` is the third column even when B1 is empty). */
function xlsx(entries: Map<string, string>): string {
  const shared = [...(entries.get('xl/sharedStrings.xml') ?? '').matchAll(/<si\b[^>]*?(?:\/>|>([\s\S]*?)<\/si>)/g)].map((m) =>
    stringItem(m[1] ?? ''),
  );
  const workbook = entries.get('xl/workbook.xml') ?? '';
  const date1904 = /<workbookPr\b[^>]*\bdate1904\s*=\s*["'](?:1|true)["']/.test(workbook);
  const names = [...workbook.matchAll(/<sheet\b([^>]*)\/?>/g)].map((m) => attribute(m[1] ?? '', 'name') ?? '');
  const styles = dateStyles(entries.get('xl/styles.xml') ?? '');
  const sheets = numbered(entries, 'xl/worksheets/sheet');
  if (sheets.length === 0) throw new ExtractError('corrupt xlsx (no worksheets)');
  const value = (attributes: string, inner: string): string => {
    const type = attribute(attributes, 't');
    if (type === 'inlineStr') return stringItem(/<is\b[^>]*>([\s\S]*?)<\/is>/.exec(inner)?.[1] ?? '');
    const raw = xmlText(/<v\b[^>]*>([\s\S]*?)<\/v>/.exec(inner)?.[1] ?? '', { breakAfter: set() });
    if (type === 's') return shared[Number(raw)] ?? '';
    if (type === 'b') return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
    if (type === 'd') return raw.replace(/T00:00:00(?:\.0+)?Z?$/, '');
    if (type === 'str' || type === 'e' || raw === '') return raw;
    const kind = styles[Number(attribute(attributes, 's') ?? 0)];
    return (kind && excelDate(Number(raw), kind, date1904)) ?? raw;
  };
  return sheets
    .map((name, i) => {
      const rows = [...(entries.get(name) ?? '').matchAll(/<row\b[^>]*?(?:\/>|>([\s\S]*?)<\/row>)/g)].map((row) => {
        const cells = new Map<number, string>();
        let next = 0;
        for (const cell of (row[1] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
          const attributes = cell[1] ?? '';
          // A cell without a reference follows the one before it.
          const column = columnOf(attribute(attributes, 'r') ?? '') ?? next;
          cells.set(column, value(attributes, cell[2] ?? ''));
          next = column + 1;
        }
        return rowLine(cells);
      });
      const title = names[i] ? `## ${names[i]}\n` : '';
      return `${title}${rows.filter((r) => r !== '').join('\n')}`;
    })
    .join('\n\n');
}

const READERS: Record<string, { entries: (name: string) => boolean; read: (e: Map<string, string>) => string }> = {
  docx: { entries: (n) => n.startsWith('word/') && n.endsWith('.xml'), read: docx },
  pptx: { entries: (n) => /^ppt\/(slides\/slide\d+|presentation)\.xml$/.test(n), read: pptx },
  xlsx: { entries: (n) => /^xl\/(sharedStrings|workbook|styles|worksheets\/sheet\d+)\.xml$/.test(n), read: xlsx },
};

export async function extractOffice(bytes: Uint8Array, ext: string): Promise<Extracted> {
  const reader = READERS[ext];
  if (reader === undefined) throw new ExtractError(`unsupported Office format .${ext}`);
  const text = reader.read(await readZipEntries(bytes, reader.entries, ext)).replace(/\n{3,}/g, '\n\n').trim();
  return { text: text === '' ? '' : `${text}\n` };
}
