/** OpenDocument: text (.odt), presentations (.odp) and spreadsheets (.ods), from content.xml. */
import { ExtractError, type Extracted } from './index.js';
import { readZipEntries } from './zip.js';
import { attribute, xmlText } from './xml-text.js';

const set = (...names: string[]) => new Set(names);

export async function extractOpenDocument(bytes: Uint8Array, ext: string): Promise<Extracted> {
  const entries = await readZipEntries(bytes, (name) => name === 'content.xml', ext);
  const xml = entries.get('content.xml');
  if (xml === undefined) throw new ExtractError(`corrupt ${ext} (no content.xml)`);
  const body = /<office:body>([\s\S]*)<\/office:body>/.exec(xml)?.[1] ?? xml;
  const text = xmlText(body, {
    breakAfter: set('text:p', 'text:h', 'table:table-row', 'draw:page', 'table:table'),
    tabAfter: set('table:table-cell', 'table:covered-table-cell'),
    tab: set('text:tab'),
    lineBreak: set('text:line-break'),
    spaces: { tag: 'text:s', count: 'text:c' },
    onOpen: (tag, attributes) => {
      if (tag === 'table:table' && ext === 'ods') return `## ${attribute(attributes, 'table:name') ?? ''}\n`;
      return undefined;
    },
  }).trim();
  return { text: text === '' ? '' : `${text}\n` };
}
