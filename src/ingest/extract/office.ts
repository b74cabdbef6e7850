/** Office Open XML: Word (.docx) paragraphs, PowerPoint (.pptx) slides, Excel (.xlsx) sheets. */
import { ExtractError, type Extracted } from './index.js';
import { numbered, readZipEntries } from './zip.js';
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

function xlsx(entries: Map<string, string>): string {
  const shared = [...(entries.get('xl/sharedStrings.xml') ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    xmlText(m[1] ?? '', { textIn: set('t'), breakAfter: set() }),
  );
  const names = [...(entries.get('xl/workbook.xml') ?? '').matchAll(/<sheet\b([^>]*)\/?>/g)].map(
    (m) => attribute(m[1] ?? '', 'name') ?? '',
  );
  const sheets = numbered(entries, 'xl/worksheets/sheet');
  if (sheets.length === 0) throw new ExtractError('corrupt xlsx (no worksheets)');
  return sheets
    .map((name, i) => {
      const rows = [...(entries.get(name) ?? '').matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)].map((row) =>
        [...(row[1] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)]
          .map((cell) => {
            const type = attribute(cell[1] ?? '', 't');
            const inner = cell[2] ?? '';
            if (type === 'inlineStr') return xmlText(inner, { textIn: set('t'), breakAfter: set() });
            const value = xmlText(/<v>([\s\S]*?)<\/v>/.exec(inner)?.[1] ?? '', { breakAfter: set() });
            if (type === 's') return shared[Number(value)] ?? '';
            if (type === 'b') return value === '1' ? 'TRUE' : 'FALSE';
            return value;
          })
          .join('\t')
          .replace(/\t+$/, ''),
      );
      const title = names[i] ? `## ${names[i]}\n` : '';
      return `${title}${rows.filter((r) => r !== '').join('\n')}`;
    })
    .join('\n\n');
}

const READERS: Record<string, { entries: (name: string) => boolean; read: (e: Map<string, string>) => string }> = {
  docx: { entries: (n) => n.startsWith('word/') && n.endsWith('.xml'), read: docx },
  pptx: { entries: (n) => /^ppt\/(slides\/slide\d+|presentation)\.xml$/.test(n), read: pptx },
  xlsx: { entries: (n) => /^xl\/(sharedStrings|workbook|worksheets\/sheet\d+)\.xml$/.test(n), read: xlsx },
};

export async function extractOffice(bytes: Uint8Array, ext: string): Promise<Extracted> {
  const reader = READERS[ext];
  if (reader === undefined) throw new ExtractError(`unsupported Office format .${ext}`);
  const text = reader.read(await readZipEntries(bytes, reader.entries, ext)).replace(/\n{3,}/g, '\n\n').trim();
  return { text: text === '' ? '' : `${text}\n` };
}
