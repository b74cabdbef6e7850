/** HTML and XML to text: scripts, styles and comments dropped, block elements become lines. */
import type { Extracted } from './index.js';
import { decodeText } from './text.js';
import { decodeEntities } from './xml-text.js';

const NAMED: Record<string, string> = {
  nbsp: ' ', copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’',
  ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', middot: '·', bull: '•', euro: '€', eacute: 'é', egrave: 'è',
  agrave: 'à', ccedil: 'ç', ecirc: 'ê', ocirc: 'ô', uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß', times: '×',
};
const BLOCK = /<\/?(?:p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|tr|table|thead|tbody|section|article|header|footer|nav|aside|main|pre|blockquote|figure|figcaption|form|fieldset|address|details|summary)\b[^>]*>/gi;

function decodeHtmlEntities(text: string): string {
  return decodeEntities(text).replace(/&([a-z]+);/gi, (whole, name: string) => NAMED[name.toLowerCase()] ?? whole);
}

export function extractMarkup(bytes: Uint8Array, ext: string): Extracted {
  const decoded = decodeText(bytes);
  const html = ext !== 'xml' && ext !== 'xsd' && ext !== 'xsl' && ext !== 'xslt' && ext !== 'plist' && ext !== 'rss' && ext !== 'atom';
  let source = decoded.text.replace(/<!--[\s\S]*?-->/g, '');
  let title: string | undefined;
  if (html) {
    title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(source)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(source)?.[1];
    source = source
      .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<li\b[^>]*>/gi, '\n- ')
      .replace(BLOCK, '\n');
  } else {
    source = source.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1').replace(/<\/[^>]+>/g, '\n');
  }
  const text = decodeHtmlEntities(source.replace(/<[^>]*>/g, html ? '' : ' '))
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const clean = title === undefined ? undefined : decodeHtmlEntities(title.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
  return { text: text === '' ? '' : `${text}\n`, ...(clean ? { title: clean } : {}), ...(decoded.note ? { note: decoded.note } : {}) };
}
