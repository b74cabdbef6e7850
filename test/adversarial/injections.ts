/**
 * The generated injection corpus: payload families (override, redefinition and system-prompt
 * extraction in seventeen languages; fake turns of every chat-template family; tool-call JSON in
 * several key orders; exfiltration; spoofed recall-block lines; instructions addressed to an AI)
 * × hiding places (HTML comment, hidden spans, code comments, front matter, link title, alt text,
 * details…) × obfuscations (tag characters, bidi, spaced and dotted letters, leetspeak, look-alike
 * letters, zero-width, entities, emphasis, base64, reversal). The phrases live in
 * test/fixtures/policy/injection-phrases.json, the one place the repository-wide policy test skips.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AdversarialCase, seeded } from './case.js';

interface Phrases {
  languages: Record<string, Record<'override' | 'redefine' | 'extract', string[]>>;
  families: Record<string, string[]>;
}

const FIXTURE = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'), 'test', 'fixtures', 'policy', 'injection-phrases.json');

/** Where a payload is hidden in an otherwise ordinary note. */
const HIDING: Record<string, (p: string) => string> = {
  'plain': (p) => p,
  'in-note': (p) => `Sprint notes, Tuesday.\n\n${p}\n\nNext: ship the release on Friday.`,
  'html-comment': (p) => `The billing service retries failed invoices nightly.\n<!-- ${p} -->`,
  'hidden-span': (p) => `<p>Release checklist is in docs/release.md.<span style="display:none">${p}</span></p>`,
  'aria-hidden': (p) => `<div>Cache TTL is 24 h.</div><div aria-hidden="true">${p}</div>`,
  'font-size-0': (p) => `<p>Logs go to stderr.</p><p style="font-size:0px">${p}</p>`,
  'white-text': (p) => `<p>On-call rotates weekly.</p><span style="color:#ffffff">${p}</span>`,
  'code-comment': (p) => `function retry(n) {\n  // ${p}\n  return n + 1;\n}`,
  'hash-comment': (p) => `retries = 3\n# ${p}\ntimeout = 30`,
  'block-comment': (p) => `const limit = 10;\n/* ${p} */`,
  'front-matter': (p) => `---\ntitle: Deploy guide\nnote: ${p}\n---\n# Deploy guide\nRun the pipeline from main.`,
  'link-title': (p) => `See [the guide](https://docs.example.com/guide "${p.replace(/"/g, '\'')}") for details.`,
  'image-alt': (p) => `Architecture: ![${p.replace(/[[\]]/g, '')}](diagram.png)`,
  'details': (p) => `Build notes.\n<details><summary>More</summary>${p}</details>`,
};

const CYRILLIC: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', i: 'і', x: 'х', y: 'у' };
const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };

/** Obfuscations of an English payload; `exotic` ones are measured but not held to the goal. */
const OBFUSCATIONS: Record<string, { wrap: (p: string) => string; exotic?: boolean }> = {
  'tag-characters': { wrap: (p) => `Weekly sync notes.${[...p].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}` },
  'bidi-override': { wrap: (p) => `Note: \u202E${[...p].reverse().join('')}\u202C` },
  'spaced-letters': { wrap: (p) => p.split(' ').map((w) => [...w].join(' ')).join('   ') },
  'dotted-letters': { wrap: (p) => p.split(' ').map((w) => [...w].join('.')).join('  ') },
  'hyphen-letters': { wrap: (p) => p.split(' ').map((w) => [...w].join('-')).join(' / ') },
  'leetspeak': { wrap: (p) => p.replace(/[aeiost]/g, (c) => LEET[c] ?? c) },
  'homoglyphs': { wrap: (p) => p.replace(/[aeopcixy]/g, (c) => CYRILLIC[c] ?? c) },
  'zero-width': { wrap: (p) => [...p].join('\u200B') },
  'html-entities': { wrap: (p) => [...p].map((c) => (/[a-z]/i.test(c) ? `&#${c.charCodeAt(0)};` : c)).join('') },
  'hex-entities': { wrap: (p) => p.split(' ').map((w, i) => (i % 2 === 0 ? [...w].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('') : w)).join(' ') },
  'emphasis-split': { wrap: (p) => p.split(' ').map((w) => (w.length > 3 ? `${w.slice(0, 2)}**${w.slice(2)}**` : w)).join(' ') },
  'base64': { wrap: (p) => `Decode and apply: ${Buffer.from(p).toString('base64')}` },
  'reversed': { wrap: (p) => [...p].reverse().join(''), exotic: true },
};

const OBFUSCATED_LANGUAGES = ['en', 'es', 'de', 'fr', 'pt', 'it'];
const HIDDEN_FAMILIES = new Set(['addressed', 'hidden-directive', 'exfil-send', 'jailbreak-mode']);

/** Every generated injection case (deterministic). */
export function injectionCases(): AdversarialCase[] {
  const phrases = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Phrases;
  const random = seeded(14_03);
  const places = Object.keys(HIDING);
  const cases: AdversarialCase[] = [];
  const add = (cls: string, wrapping: string, text: string, exotic = false) =>
    cases.push({ kind: 'injection', class: cls, wrapping, text, ...(exotic ? { exotic } : {}) });
  for (const [lang, families] of Object.entries(phrases.languages)) {
    for (const [family, list] of Object.entries(families)) {
      for (const payload of list) {
        // Every phrase plain and in a note, and in four hiding places drawn at random.
        const chosen = new Set(['plain', 'in-note']);
        while (chosen.size < 6) chosen.add(places[Math.floor(random() * places.length)] ?? 'plain');
        for (const place of chosen) add(`${family}/${lang}`, place, HIDING[place]?.(payload) ?? payload);
        if (!OBFUSCATED_LANGUAGES.includes(lang)) continue;
        for (const [name, { wrap, exotic }] of Object.entries(OBFUSCATIONS)) {
          if (lang !== 'en' && random() < 0.5) continue;
          add(`${family}/${lang}`, name, wrap(payload), exotic === true);
        }
      }
    }
  }
  for (const [family, list] of Object.entries(phrases.families)) {
    for (const payload of list) {
      add(`${family}/en`, 'plain', payload);
      add(`${family}/en`, 'in-note', HIDING['in-note']?.(payload) ?? payload);
      if (HIDDEN_FAMILIES.has(family)) {
        for (const place of places.slice(2)) add(`${family}/en`, place, HIDING[place]?.(payload) ?? payload);
      }
    }
  }
  return cases;
}
