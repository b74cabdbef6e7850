/**
 * secretlint's recommended preset (a maintained, tested provider rule set) behind our rule
 * interface: each scanner of the preset becomes one `secret.secretlint.<name>` pattern rule whose
 * `scan` runs the scanner on a view's text and yields the ranges it reports. The preset's scanners
 * report synchronously; a scanner that returns a promise (the GCP `.p12` check, which needs a file
 * path we never give) is skipped. Its comment filter is left out: a `secretlint-disable` comment
 * in a memory must not switch the policy off.
 */
import { createRequire } from 'node:module';
import type { PatternRule } from './rules.js';
import { SECRETLINT_SCANNERS } from './secretlint-scanners.generated.js';
import { isDocumentationValue } from './secret-values.js';

/** The parts of secretlint's rule API the adapter uses (its types package is not a dependency). */
interface SecretlintReport {
  message?: string;
  range: readonly [number, number];
}

interface SecretlintContext {
  report: (descriptor: SecretlintReport) => void;
  ignore: (descriptor: unknown) => void;
  registerRule: (rule: unknown) => void;
  createTranslator: (messages: unknown) => (id: string, props?: unknown) => string;
}

interface SecretlintSource {
  content: string;
  filePath: undefined;
  ext: string;
  contentType: 'text';
}

interface SecretlintRule {
  meta: { id: string; type: string; docs?: { url?: string } };
  create: (context: SecretlintContext, options: Record<string, unknown>) => {
    file?: (source: SecretlintSource) => unknown;
  };
}

/** Preset members that are not scanners of text we hold. */
const SKIPPED = new Set(['@secretlint/secretlint-rule-filter-comments', '@secretlint/secretlint-rule-gcp']);

/**
 * The preset (lodash and some thirty rules: milliseconds to evaluate), loaded on first need: a
 * process whose texts no scanner is admitted for (the screen, screen.ts) never evaluates it. The
 * bundle keeps it external (scripts/bundle.ts): its chunk's `require` loads it from node_modules;
 * the library and the tests (ES modules, which have no `require`) load it the same way.
 */
let preset: { rules: unknown } | undefined;

function presetRules(): SecretlintRule[] {
  preset ??= typeof require === 'function'
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ? (require('@secretlint/secretlint-rule-preset-recommend') as { rules: unknown })
    : (createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend') as { rules: unknown });
  return preset.rules as SecretlintRule[];
}

/**
 * The ids of the preset's scanners the policy runs, read from the preset (the rules are made from
 * `secretlint-scanners.generated.ts`, written from this by `npm run generate:policy`).
 */
export function presetScanners(): string[] {
  return presetRules().filter((rule) => rule.meta.type === 'scanner' && !SKIPPED.has(rule.meta.id)).map((rule) => rule.meta.id);
}

interface Found {
  start: number;
  end: number;
}

/** Characters a reported token may go on with (some scanners report a range shorter than the key). */
const TOKEN_CHAR = /[A-Za-z0-9+/=_.~-]/;

/** The reported range, grown to the end of the token it starts, so that a mask hides all of it. */
function grown(text: string, start: number, end: number): Found {
  let to = end;
  while (to < text.length && TOKEN_CHAR.test(text[to] ?? '')) to++;
  return { start, end: to };
}

/**
 * What a text must hold for any of the preset's scanners to report: a token of 16 or more token
 * characters, a URL with a scheme, or a key block header. Prose and short code skip them all.
 */
const SECRETLINT_NEEDS = /:\/\/|BEGIN|(?<![A-Za-z0-9_+/=.~-])[A-Za-z0-9_+/=.~-]{16}/;

/** The prefilter's answers for the texts seen last (every scanner asks about the same few views). */
const answers = new Map<string, boolean>();

function worthScanning(text: string): boolean {
  let answer = answers.get(text);
  if (answer === undefined) {
    if (answers.size >= 16) answers.clear();
    answer = SECRETLINT_NEEDS.test(text);
    answers.set(text, answer);
  }
  return answer;
}

/**
 * The expressions a scanner reads a text with, or undefined when it reads it in any other way:
 * it is given a text that records every property read of it. The preset's scanners report only
 * inside loops over `content.matchAll(pattern)`, so every report lies in a match of one of these
 * (the screen, screen.ts, skips a scanner when none of their literals is in the text).
 */
function probe(handler: ReturnType<SecretlintRule['create']>): RegExp[] | undefined {
  const patterns: RegExp[] = [];
  let other = false;
  const content = new Proxy(Object(''), {
    get(target, key) {
      if (key !== 'matchAll') {
        other = true;
        return Reflect.get(target, key) as unknown;
      }
      return (pattern: RegExp) => {
        patterns.push(pattern);
        return ''.matchAll(pattern);
      };
    },
  }) as string;
  try {
    const result = handler.file?.({ content, filePath: undefined, ext: '', contentType: 'text' });
    if (result instanceof Promise) return undefined;
  } catch {
    return undefined;
  }
  return other || patterns.length === 0 ? undefined : patterns;
}

/** One scanner, set up on first use: `scan(text)` gives the ranges it reports in `text`. */
function scannerOf(id: string): { scan: (text: string) => Found[]; patterns: () => RegExp[] | undefined } {
  let found: Found[] = [];
  let current = '';
  const context: SecretlintContext = {
    report: ({ range }) => {
      if (range[1] <= range[0]) return;
      const span = grown(current, range[0], range[1]);
      // Published examples and placeholders are accepted, as by our own rules.
      if (!isDocumentationValue(current.slice(span.start, span.end))) found.push(span);
    },
    ignore: () => undefined,
    registerRule: () => undefined,
    createTranslator: () => (id) => id,
  };
  let made: ReturnType<SecretlintRule['create']> | undefined;
  const handler = () => {
    if (made !== undefined) return made;
    const rule = presetRules().find((r) => r.meta.id === id);
    // A scanner the preset no longer has finds nothing (test/policy-generated.test.ts fails first).
    made = rule === undefined ? {} : rule.create(context, {});
    return made;
  };
  let probed: { patterns: RegExp[] | undefined } | undefined;
  const scan = (text: string) => {
    if (!worthScanning(text)) return [];
    found = [];
    current = text;
    const result = handler().file?.({ content: text, filePath: undefined, ext: '', contentType: 'text' });
    // A scanner that works asynchronously cannot answer a synchronous policy: its late reports
    // go to a list nobody reads, and what it found so far is all it found.
    if (result instanceof Promise) result.catch(() => undefined);
    return found;
  };
  return { scan, patterns: () => (probed ??= { patterns: probe(handler()) }).patterns };
}

function ruleName(id: string): string {
  return id.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** The preset's scanners as pattern rules (`secret.secretlint.github`, `secret.secretlint.aws`…). */
export const SECRETLINT_RULES: readonly PatternRule[] = Object.freeze(
  SECRETLINT_SCANNERS.map((id): PatternRule => {
    const { scan, patterns } = scannerOf(id);
    return {
      id: `secret.secretlint.${ruleName(id)}`,
      group: 'secret',
      action: 'reject',
      kind: 'token',
      description: `secretlint's ${ruleName(id)} rule (recommended preset)`,
      patterns: [],
      scan,
      scanPatterns: patterns,
      complements: true,
    };
  }),
);
