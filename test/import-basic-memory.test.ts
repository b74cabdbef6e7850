/**
 * `engram import --from basic-memory`: a folder of 1,050 Markdown notes generated in
 * basic-memory's documented format (front matter title / type / tags / permalink and custom
 * fields; `- [category] text #tag (context)` observations; `- relation [[Target]]` relations and
 * inline `[[links]]`), with secrets, an empty note, a front matter line it cannot read, a hidden
 * folder and a file that is not Markdown.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { openEngram } from '../src/index.js';
import { tempDir } from './helpers.js';
import { assertAddsUp, assertNowhere, importFrom, secretValue, withoutHash } from './import-helpers.js';

const TIMEOUT = { timeout: 600_000 };
const COUNT = 1050;
const TYPES = ['note', 'decision', 'Person', 'fact'];
const EMPTY = 99;
const NESTED = 40;
const FENCE = '```';

const secretIn = (i: number): 'observation' | 'front matter' | undefined =>
  i % 100 === 3 ? 'observation' : i === 611 ? 'front matter' : undefined;
const stored = (i: number) => i >= 0 && i < COUNT && secretIn(i) === undefined && i !== EMPTY;
const title = (i: number) => (i % 50 === 25 ? `note-${i}` : `Note ${i}`);
const permalink = (i: number) => (i % 4 === 3 ? undefined : `note-${i}-link`);
const file = (i: number) => `notes/group${i % 10}/note-${i}.md`;
const sourceId = (i: number) => permalink(i) ?? file(i).replace(/\.md$/, '');
const mtime = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000);

function tagLines(i: number): string[] {
  if (i % 3 === 0) return ['tags: [alpha, "beta gamma"]'];
  if (i % 3 === 1) return ['tags:', '  - alpha', '  - delta'];
  return ['tags: alpha, epsilon'];
}
const fmTags = (i: number) => [['alpha', 'beta gamma'], ['alpha', 'delta'], ['alpha', 'epsilon']][i % 3] as string[];

/** The relations a note states, in the order it states them, then its inline links. */
function relations(i: number): { type: string; target: string; context?: string }[] {
  const list: { type: string; target: string; context?: string }[] = [];
  if (i + 1 < COUNT) list.push({ type: 'relates_to', target: `Note ${i + 1}`, context: 'next' });
  if (i % 10 === 1) list.push({ type: 'supersedes', target: sourceId(i - 1) });
  if (i % 100 === 50) list.push({ type: 'depends_on', target: `Missing ${i}` });
  list.push({ type: 'links_to', target: `Note ${i + 2}` });
  return list;
}

function body(i: number): string {
  if (i === EMPTY) return '';
  const secret = secretIn(i) === 'observation' ? `\n- [secret] the deploy credential ${secretValue(i, 'bm')}` : '';
  const stated = relations(i).filter((r) => r.type !== 'links_to');
  return [
    '',
    `# ${title(i)}`,
    '',
    `Paragraph about note ${i}, see [[Note ${i + 2}]].`,
    '',
    '## Observations',
    `- [decision] Use SQLite for note ${i} #storage #T${i % 5} (chosen in review)`,
    `- [fact] It holds ${i} rows${secret}`,
    '- [ ] a task, not an observation',
    '',
    `${FENCE}text`,
    '- [fake] inside a fence is not an observation',
    FENCE,
    '',
    '## Relations',
    ...stated.map((r) => `- ${r.type} [[${r.target}]]${r.context === undefined ? '' : ` (${r.context})`}`),
    '',
  ].join('\n');
}

function note(i: number): string {
  const front = [
    '---',
    ...(i % 50 === 25 ? [] : [i % 7 === 0 ? `title: "${title(i)}"` : `title: ${title(i)}`]),
    `type: ${TYPES[i % 4]}`,
    ...tagLines(i),
    ...(permalink(i) === undefined ? [] : [`permalink: ${permalink(i)}`]),
    ...(i % 2 === 0 ? [`created: 2024-03-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00+02:00`, 'modified: 2024-04-01 08:30:00'] : []),
    ...(i % 5 === 0 ? ['status: active # reviewed', 'summary: "a: b"'] : []),
    ...(i === NESTED ? ['extra:', '  nested: value'] : []),
    ...(secretIn(i) === 'front matter' ? [`owner_key: ${secretValue(i, 'bm')}`] : []),
    '---',
  ];
  return `${front.join('\n')}\n${body(i)}`;
}

function writeNotes(dir: string): { root: string; secrets: string[] } {
  const root = join(dir, 'kb');
  for (let i = 0; i < COUNT; i++) {
    const path = join(root, file(i));
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, note(i));
    utimesSync(path, mtime(i), mtime(i));
  }
  mkdirSync(join(root, '.obsidian'), { recursive: true });
  writeFileSync(join(root, '.obsidian', 'workspace.md'), '# not a note');
  writeFileSync(join(root, 'notes', 'image.png'), 'not markdown');
  const secrets = Array.from({ length: COUNT }, (_, i) => i).filter((i) => secretIn(i) !== undefined).map((i) => secretValue(i, 'bm'));
  return { root, secrets };
}

/** The note a relation target names (by title or permalink, any case), as basic-memory resolves it. */
function resolver(): (target: string) => number | undefined {
  const names = new Map<string, number>();
  for (let i = 0; i < COUNT; i++) names.set(sourceId(i).toLowerCase(), i);
  for (let i = 0; i < COUNT; i++) if (!names.has(title(i).toLowerCase())) names.set(title(i).toLowerCase(), i);
  return (target) => names.get(target.toLowerCase());
}

function expectedLinks(): { created: number; unresolved: number } {
  const resolve = resolver();
  const counts = { created: 0, unresolved: 0 };
  for (let i = 0; i < COUNT; i++) {
    if (!stored(i)) continue;
    for (const r of relations(i)) {
      const to = resolve(r.target);
      if (to !== undefined && stored(to) && to !== i) counts.created++;
      else counts.unresolved++;
    }
  }
  return counts;
}

test('basic-memory: 1,050 notes imported one item each, counted, mapped field by field; secrets refused; re-import adds nothing', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-basic-memory-');
  const db = join(dir, 'memory.db');
  const { root, secrets } = writeNotes(dir);

  const first = importFrom(db, 'basic-memory', root);
  assert.equal(first.code, 1);
  const r = first.report;
  assertAddsUp(r);
  assert.equal(r.read, COUNT, 'every note, and only notes');
  assert.equal(r.refused, secrets.length);
  assert.equal(r.invalid, 1, 'the empty note');
  assert.equal(r.created, COUNT - secrets.length - 1);
  const links = expectedLinks();
  assert.deepEqual(r.links, { created: links.created, existing: 0, unresolved: links.unresolved });
  const nestedLine = note(NESTED).split('\n').indexOf('  nested: value') + 1;
  assert.deepEqual(r.not_mapped.filter((u) => u.field !== 'links'), [
    { where: sourceId(NESTED), field: `front matter line ${nestedLine}`, reason: 'nested value under extra not read' },
  ]);
  assertNowhere(db, secrets, first);

  const engram = await openEngram({ path: db });
  const { items } = await engram.list({ limit: 100_000, archived: 'include', quarantined: 'include' });
  assert.equal(items.length, r.created);
  const bySource = new Map(items.map((item) => [(item.provenance?.import as { source_id: string }).source_id, item]));
  const resolve = resolver();
  for (let i = 0; i < COUNT; i += 19) {
    const item = bySource.get(sourceId(i));
    if (!stored(i)) {
      assert.equal(item, undefined, `note ${i} not stored`);
      continue;
    }
    assert.ok(item !== undefined, `note ${i} stored`);
    assert.equal(item.title, title(i));
    assert.equal(item.content, body(i).slice(1), 'the note as written, without the blank line after the front matter');
    assert.equal(item.type, ['note', 'decision', 'note', 'fact'][i % 4]);
    assert.deepEqual(item.tags, [...fmTags(i), 'storage', `t${i % 5}`]);
    const created = i % 2 === 0 ? new Date(Date.UTC(2024, 2, 1 + (i % 28), 8)).toISOString() : mtime(i).toISOString();
    assert.equal(item.created_at, created);
    assert.equal(item.updated_at, i % 2 === 0 ? '2024-04-01T08:30:00.000Z' : mtime(i).toISOString());
    const metadata = {
      ...(i % 5 === 0 ? { status: 'active', summary: 'a: b' } : {}),
      ...(i === NESTED ? { extra: null } : {}),
    };
    assert.deepEqual(withoutHash(item.provenance), {
      import: {
        from: 'basic-memory',
        source_id: sourceId(i),
        namespace: realpathSync(root),
        path: root,
        file: file(i),
        type: TYPES[i % 4],
        categories: ['decision', 'fact'],
        relations: relations(i),
        ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
      },
    });
    const next = resolve(`Note ${i + 1}`);
    if (next !== undefined && stored(next)) {
      const out = await engram.links(item.id);
      assert.ok(out.some((l) => l.src_id === item.id && l.dst_id === bySource.get(sourceId(next))?.id && l.type === 'related'));
    }
  }
  const superseding = bySource.get(sourceId(11));
  assert.ok((await engram.links(superseding?.id ?? '')).some((l) => l.type === 'supersedes' && l.dst_id === bySource.get(sourceId(10))?.id));
  engram.close();

  const again = importFrom(db, 'basic-memory', root);
  assertAddsUp(again.report);
  assert.equal(again.report.created, 0, 're-import adds nothing');
  assert.equal(again.report.updated, 0);
  assert.equal(again.report.unchanged, r.created);

  // An edited note: the dry run sees the update and writes nothing; the import then updates it.
  const edited = join(root, file(10));
  writeFileSync(edited, readFileSync(edited, 'utf8').replace('It holds 10 rows', 'It holds 11 rows'));
  utimesSync(edited, mtime(10), mtime(10));
  const dry = importFrom(db, 'basic-memory', root, ['--dry-run']);
  assert.deepEqual([dry.report.created, dry.report.updated, dry.report.unchanged], [0, 1, r.created - 1]);
  const reopened = await openEngram({ path: db });
  const before = await reopened.get({ id: bySource.get(sourceId(10))?.id ?? '' });
  reopened.close();
  assert.match(before.content, /It holds 10 rows/, 'the dry run wrote nothing');
  assert.equal(before.version, 1);
  const update = importFrom(db, 'basic-memory', root);
  assert.deepEqual([update.report.created, update.report.updated, update.report.unchanged], [0, 1, r.created - 1]);
});
