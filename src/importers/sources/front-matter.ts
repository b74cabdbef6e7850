/**
 * A minimal reader of a Markdown note's YAML front matter (between `---` lines at the top), enough
 * for the notes basic-memory writes. It handles `key: value` scalars (plain, 'single' or "double"
 * quoted, a trailing ` # comment` dropped), lists in flow form (`[a, "b c"]`) or block form (`- a`
 * lines under `key:`), literal (`|`) and folded (`>`) block scalars, blank and comment lines.
 * Anything else (nested maps, anchors, multi-line flow lists) is not read: the line is reported.
 * Values are strings, lists of strings, or null for an empty value; no type is guessed.
 */

export type FrontMatterValue = string | string[] | null;

export interface FrontMatter {
  fields: Record<string, FrontMatterValue>;
  /** The note after the front matter. */
  body: string;
  /** Lines of the front matter that were not read, numbered from the file's first line. */
  problems: { line: number; reason: string }[];
}

const KEY_LINE = /^([A-Za-z0-9_][\w .-]*?)\s*:(?:\s+(.*))?$/;

function unquote(text: string): string {
  const value = text.trim();
  if (value.length >= 2 && value.startsWith('\'') && value.endsWith('\'')) return value.slice(1, -1).replaceAll('\'\'', '\'');
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\nt])/g, (_, c: string) => ({ n: '\n', t: '\t' } as Record<string, string>)[c] ?? c);
  }
  return value;
}

/** A plain scalar without its trailing comment; quoted ones as they are. */
function scalar(text: string): string {
  const value = text.trim();
  if (value.startsWith('"') || value.startsWith('\'')) return unquote(value);
  return value.replace(/\s+#.*$/, '').trim();
}

/** The items of a one-line flow list, split on commas outside quotes. */
function flowList(text: string): string[] | undefined {
  const inner = text.trim();
  if (!inner.startsWith('[') || !inner.endsWith(']')) return undefined;
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const char of inner.slice(1, -1)) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      current += char;
    } else if (char === '"' || char === '\'') {
      quote = char;
      current += char;
    } else if (char === ',') {
      items.push(current);
      current = '';
    } else current += char;
  }
  items.push(current);
  return items.map(unquote).filter((item) => item !== '');
}

/**
 * Splits `text` into its front matter and body.
 *
 * @example
 * readFrontMatter('---\ntitle: Coffee\ntags: [a, b]\n---\n# Coffee\n').fields; // { title: 'Coffee', tags: ['a', 'b'] }
 */
export function readFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const fields: Record<string, FrontMatterValue> = {};
  const problems: FrontMatter['problems'] = [];
  if (lines[0]?.trim() !== '---') return { fields, body: text.replace(/^\uFEFF/, ''), problems };
  const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (end < 0) {
    problems.push({ line: 1, reason: 'front matter without a closing ---' });
    return { fields, body: lines.join('\n'), problems };
  }
  let i = 1;
  while (i < end) {
    const line = lines[i] as string;
    const number = i + 1;
    i++;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) {
      problems.push({ line: number, reason: 'not a key: value line' });
      continue;
    }
    const key = (match[1] as string).trim();
    const rest = (match[2] ?? '').trim();
    if (rest === '|' || rest === '>' || rest === '|-' || rest === '>-') {
      const block: string[] = [];
      while (i < end && (/^\s+\S/.test(lines[i] as string) || (lines[i] as string).trim() === '')) block.push((lines[i++] as string).trim());
      fields[key] = rest.startsWith('|') ? block.join('\n').trim() : block.join(' ').replace(/\s+/g, ' ').trim();
    } else if (rest === '') {
      const items: string[] = [];
      while (i < end && /^\s*-(\s|$)/.test(lines[i] as string)) items.push(scalar((lines[i++] as string).replace(/^\s*-\s?/, '')));
      while (i < end && /^\s+\S/.test(lines[i] as string)) {
        problems.push({ line: i + 1, reason: `nested value under ${key} not read` });
        i++;
      }
      fields[key] = items.length > 0 ? items : null;
    } else if (rest.startsWith('[')) {
      const list = flowList(rest);
      if (list === undefined) problems.push({ line: number, reason: 'a list that does not close on its line' });
      else fields[key] = list;
    } else if (rest.startsWith('{') || rest.startsWith('&') || rest.startsWith('*')) {
      problems.push({ line: number, reason: `the value of ${key} is not a string or a list` });
    } else fields[key] = scalar(rest);
  }
  return { fields, body: lines.slice(end + 1).join('\n'), problems };
}
