/**
 * Minimal edits to a JSON or JSONC configuration file: add a member at the end of an object or
 * array, replace a value, remove a member, each as one text edit placed by jsonc-parser's syntax
 * tree, so every other byte (comments, trailing commas, key order, indentation, line ends) stays
 * as it was. A removal is the exact inverse of the insertion: the insertion puts `,` + line break +
 * indent + member right after the previous member, and the removal takes from the end of the
 * previous member to the end of the removed one.
 *
 * jsonc-parser's own `modify` is not used for insertions: with formatting options it re-formats
 * every line the edit touches (a one-line neighbour entry gets expanded), without them it writes
 * the new member as one compact line.
 */
import { applyEdits, createScanner, type Edit, findNodeAtLocation, type Node, parse, parseTree, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { EngramError } from '../errors.js';
import type { JsonValue } from './server-entry.js';

/** A path of object keys and array indexes, from the root. */
export type JsonPath = (string | number)[];

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** The line ending the file uses. */
export function lineEnding(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The file's indent unit: the leading whitespace of its first indented line (two spaces when none). */
function indentUnit(text: string): string {
  for (const line of text.split('\n')) {
    const lead = line.slice(0, line.length - line.trimStart().length);
    if (lead !== '' && line.trim() !== '') return lead.startsWith('\t') ? '\t' : lead;
  }
  return '  ';
}

/** The leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(start, offset);
  return line.slice(0, line.length - line.trimStart().length);
}

/** True when no line break lies between `from` and `to`. */
function sameLine(text: string, from: number, to: number): boolean {
  return !text.slice(from, to).includes('\n');
}

/**
 * `value` as JSON at `indent`: objects one member a line, arrays of plain values on one line
 * (`"args": ["serve"]`, as people write them).
 */
export function renderJson(value: JsonValue, unit: string, indent: string, eol: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = indent + unit;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    return `[${eol}${value.map((v) => inner + renderJson(v, unit, inner, eol)).join(`,${eol}`)}${eol}${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{${eol}${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${renderJson(v, unit, inner, eol)}`).join(`,${eol}`)}${eol}${indent}}`;
}

/** The syntax tree of a configuration file; PARAM_ERROR naming the file when it is not valid JSONC. */
export function jsonTree(text: string, file: string): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first !== undefined) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new EngramError('PARAM_ERROR', `${file} is not valid JSON (${printParseErrorCode(first.error)} on line ${line})`, {
      hint: 'Fix the file (or move it away) and run the command again; nothing was changed.',
      details: { path: file, line },
    });
  }
  if (root !== undefined && root.type !== 'object') {
    throw new EngramError('PARAM_ERROR', `${file} does not hold a JSON object`, {
      hint: 'The file must be one JSON object; fix or move it and run the command again.',
      details: { path: file },
    });
  }
  return root;
}

/** The value of a configuration file ({} for an empty one). */
export function jsonValue(text: string): unknown {
  return parse(text, [], PARSE_OPTIONS) ?? {};
}

/** The node at `path`, if there is one. */
export function nodeAt(text: string, path: JsonPath): Node | undefined {
  const root = parseTree(text, [], PARSE_OPTIONS);
  return root === undefined ? undefined : findNodeAtLocation(root, path);
}

/** `key: value` (or `value` in an array) as one member at `indent`. */
function member(key: string | undefined, value: JsonValue, unit: string, indent: string, eol: string): string {
  return `${key === undefined ? '' : `${JSON.stringify(key)}: `}${renderJson(value, unit, indent, eol)}`;
}

/** Appends a member (a property when `key` is given) at the end of the object or array `container`. */
function appendTo(text: string, container: Node, key: string | undefined, value: JsonValue): Edit {
  const eol = lineEnding(text);
  const unit = indentUnit(text);
  const last = container.children?.at(-1);
  if (last !== undefined) {
    if (sameLine(text, container.offset, last.offset)) {
      return { offset: last.offset + last.length, length: 0, content: `, ${member(key, value, '', '', ' ')}` };
    }
    const indent = lineIndent(text, last.offset);
    return { offset: last.offset + last.length, length: 0, content: `,${eol}${indent}${member(key, value, unit, indent, eol)}` };
  }
  const close = lineIndent(text, container.offset);
  const indent = close + unit;
  const innerStart = container.offset + 1;
  const inner = text.slice(innerStart, container.offset + container.length - 1);
  // `{}` opens onto lines of its own; inner comments or line breaks stay after the new member.
  if (inner.trim() === '' && !inner.includes('\n')) {
    return { offset: innerStart, length: inner.length, content: `${eol}${indent}${member(key, value, unit, indent, eol)}${eol}${close}` };
  }
  return { offset: innerStart, length: 0, content: `${eol}${indent}${member(key, value, unit, indent, eol)}` };
}

/** `path`'s missing tail wrapped around `value`: (['a', 'b'], v) → { a: { b: v } }. */
function nest(path: string[], value: JsonValue): JsonValue {
  return path.reduceRight<JsonValue>((inner, key) => ({ [key]: inner }), value);
}

/** The deepest existing object along `path`, and the keys still missing below it. */
function deepest(root: Node, path: string[], file: string): { node: Node; missing: string[] } {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const next = findNodeAtLocation(node, [path[i] ?? '']);
    if (next === undefined) return { node, missing: path.slice(i) };
    if (next.type !== 'object' && !(next.type === 'array' && i === path.length - 1)) {
      throw new EngramError('PARAM_ERROR', `${file}: "${path.slice(0, i + 1).join('.')}" is not an object`, {
        hint: 'Fix that entry by hand (or move the file away) and run the command again; nothing was changed.',
        details: { path: file },
      });
    }
    node = next;
  }
  return { node, missing: [] };
}

/** A whole new file holding `value`. */
function newFile(text: string, value: JsonValue): string {
  const eol = lineEnding(text);
  const body = `${renderJson(value, '  ', '', eol)}${eol}`;
  return text.trim() === '' ? body : `${text}${text.endsWith('\n') ? '' : eol}${body}`;
}

/**
 * Sets `key` to `value` in the object at `path` (created as needed): a new key is appended as the
 * object's last member; an existing one has its value replaced in place.
 */
export function setProperty(text: string, path: string[], key: string, value: JsonValue, file: string): string {
  const root = jsonTree(text, file);
  if (root === undefined) return newFile(text, nest([...path, key], value));
  const { node, missing } = deepest(root, [...path, key], file);
  if (missing.length === 0) {
    const indent = lineIndent(text, node.parent?.offset ?? node.offset);
    const content = renderJson(value, indentUnit(text), indent, lineEnding(text));
    return applyEdits(text, [{ offset: node.offset, length: node.length, content }]);
  }
  const [first = key, ...rest] = missing;
  return applyEdits(text, [appendTo(text, node, first, nest(rest, value))]);
}

/** Appends `value` to the array at `path` (the array and the objects above it created as needed). */
export function appendElement(text: string, path: string[], value: JsonValue, file: string): string {
  const root = jsonTree(text, file);
  if (root === undefined) return newFile(text, nest(path, [value]));
  const { node, missing } = deepest(root, path, file);
  if (missing.length === 0) {
    if (node.type !== 'array') throw new EngramError('PARAM_ERROR', `${file}: "${path.join('.')}" is not a list`);
    return applyEdits(text, [appendTo(text, node, undefined, value)]);
  }
  const [first = '', ...rest] = missing;
  return applyEdits(text, [appendTo(text, node, first, nest(rest, [value]))]);
}

/**
 * Removes the member at `path` (a property or an array element): from the end of the member
 * before it, so an appended member leaves no trace; a container left with only whitespace inside
 * closes up (`{}`).
 */
export function removeMember(text: string, path: JsonPath): string {
  const target = nodeAt(text, path);
  if (target === undefined) return text;
  const item = target.parent?.type === 'property' ? target.parent : target;
  const container = item.parent;
  if (container === undefined) return text;
  const siblings = container.children ?? [];
  const index = siblings.indexOf(item);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  const end = item.offset + item.length;
  if (previous !== undefined) return applyEdits(text, [{ offset: previous.offset + previous.length, length: end - previous.offset - previous.length, content: '' }]);
  if (next !== undefined) return applyEdits(text, [{ offset: item.offset, length: next.offset - item.offset, content: '' }]);
  const innerStart = container.offset + 1;
  const closeAt = container.offset + container.length - 1;
  const rest = text.slice(end, closeAt);
  // The only member: the container closes up when nothing but whitespace is left inside it.
  return rest.trim() === ''
    ? applyEdits(text, [{ offset: innerStart, length: closeAt - innerStart, content: '' }])
    : applyEdits(text, [{ offset: innerStart, length: end - innerStart, content: '' }]);
}

/** The tokens of a JSONC text, whitespace aside: two texts with the same differ in layout only. */
export function jsonTokens(text: string): string[] {
  const scanner = createScanner(text, false);
  const tokens: string[] = [];
  for (;;) {
    scanner.scan();
    const length = scanner.getTokenLength();
    if (length === 0 && scanner.getPosition() >= text.length) return tokens;
    const token = text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + length);
    if (token.trim() !== '') tokens.push(token);
    if (length === 0) return tokens;
  }
}
