/**
 * Text out of the XML inside Office and OpenDocument files: a single pass over tags and text
 * nodes, with per-format rules for which elements hold text and which end a paragraph, a cell or
 * a line. Entities are decoded. Enough for extraction; not a general XML parser.
 */
import { decodeXML } from 'entities';

export interface XmlTextRules {
  /** Elements whose text content is kept; omit to keep every text node. */
  textIn?: ReadonlySet<string>;
  /** Closing these appends a line break (paragraphs, rows, slides). */
  breakAfter: ReadonlySet<string>;
  /** Closing these appends a tab (table cells). */
  tabAfter?: ReadonlySet<string>;
  /** Empty elements that stand for a tab or a line break. */
  tab?: ReadonlySet<string>;
  lineBreak?: ReadonlySet<string>;
  /** An empty element standing for N spaces, N in the given attribute (ODF `text:s text:c`). */
  spaces?: { tag: string; count: string };
  /** Called on each opening tag; a string return value is appended (headings, sheet names). */
  onOpen?: (tag: string, attributes: string) => string | undefined;
}

/** The value of attribute `name` in an attribute string. */
export function attribute(attributes: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attributes);
  return m === null ? undefined : decodeXML(m[2] ?? m[3] ?? '');
}

/** Marks the end of a table cell until the cleanup turns it into a tab. */
const CELL_END = '\u0001';
const CELL_END_RUN = new RegExp(`\\n*${CELL_END}`, 'g');

const TOKEN = /<(\/?)([A-Za-z_][\w:.-]*)([^>]*?)(\/?)>|<!\[CDATA\[([\s\S]*?)\]\]>|<[!?][^>]*>|([^<]+)/g;

/** The text of `xml` under `rules`. */
export function xmlText(xml: string, rules: XmlTextRules): string {
  let out = '';
  let depth = 0;
  for (const m of xml.matchAll(TOKEN)) {
    const [, closing, tag, attributes = '', selfClosing, cdata, text] = m;
    if (text !== undefined || cdata !== undefined) {
      if (rules.textIn === undefined || depth > 0) out += cdata ?? decodeXML(text ?? '');
      continue;
    }
    if (tag === undefined) continue;
    if (closing) {
      if (rules.textIn?.has(tag)) depth = Math.max(0, depth - 1);
      if (rules.tabAfter?.has(tag)) out += CELL_END;
      if (rules.breakAfter.has(tag)) out += '\n';
      continue;
    }
    const prefix = rules.onOpen?.(tag, attributes);
    if (prefix !== undefined) out += prefix;
    if (rules.tab?.has(tag)) out += '\t';
    if (rules.lineBreak?.has(tag)) out += '\n';
    if (rules.spaces?.tag === tag) out += ' '.repeat(Math.min(1000, Number(attribute(attributes, rules.spaces.count) ?? 1) || 1));
    if (selfClosing) {
      if (rules.tabAfter?.has(tag)) out += CELL_END;
      if (rules.breakAfter.has(tag)) out += '\n';
    } else if (rules.textIn?.has(tag)) {
      depth++;
    }
  }
  // A cell ends with a tab, not with the break of its last paragraph; a row drops trailing tabs.
  return out
    .replace(CELL_END_RUN, '\t')
    .replace(/\t+(?=\n|$)/g, '')
    .replace(/\n{3,}/g, '\n\n');
}
