/**
 * The import runner over a reader written here (the shape memctl's revisions and links take):
 * past versions become the item's history and pass the policy one by one, links are resolved by
 * source id within a run and across runs, an engram id from the source is kept, what the reader
 * could not map is reported. And the CLI's refusals of a wrong source or path.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { runImport } from '../src/importers/run-import.js';
import type { ImportSource, SourceEntry } from '../src/importers/source.js';
import { cli, tempDir } from './helpers.js';
import { assertAddsUp, importContext, secretValue, storeBytes } from './import-helpers.js';

const TIMEOUT = { timeout: 300_000 };

function source(entries: SourceEntry[]): ImportSource {
  return {
    name: 'memctl',
    expects: 'entries given by the test',
    mapping: [['content', 'content']],
    read: async function* read() {
      yield* entries;
    },
  };
}

test('runner: history with a refused past version, links by source id within and across runs, kept ids, dry run', TIMEOUT, async (t) => {
  const dir = tempDir(t, 'engram-import-runner-');
  const db = join(dir, 'memory.db');
  const ctx = importContext(db);
  t.after(() => void ctx.store.close());
  const secret = secretValue(1, 'runner');
  const entries: SourceEntry[] = [
    {
      record: {
        sourceId: 'A',
        title: 'Session tokens',
        content: 'Sessions last 15 minutes',
        type: 'decision',
        tier: 'ltm',
        validation: 'verified',
        tags: ['Auth'],
        revisions: [
          { content: 'Sessions last 60 minutes', changed_at: '2024-01-01T00:00:00Z', reason: 'created' },
          { content: `Sessions last 30 minutes, key ${secret}`, changed_at: '2024-02-01T00:00:00+01:00' },
        ],
        links: [{ to: 'B', type: 'supports' }, { to: 'Z', type: 'related' }],
      },
    },
    { record: { sourceId: 'B', content: 'Refresh tokens live in cookies', links: [{ to: 'A', type: 'contradicts' }] } },
    { record: { sourceId: 'C', content: `deploy key ${secretValue(2, 'runner')}` } },
    { record: { sourceId: 'MEM-0123456789ab', content: 'An item memctl named', corpus_id: 'docs', injectable: false, secrecy: 'S0' } },
    { unmapped: { where: 'row 9', reason: 'no content column' } },
    { unmapped: { where: 'B', field: 'corpus_hash', reason: 'no engram field' } },
  ];
  const input = { from: 'memctl' as const, path: join(dir, 'memctl.db') };
  const report = await runImport(ctx, source(entries), input);
  assertAddsUp(report);
  assert.deepEqual(
    [report.read, report.created, report.refused, report.unmapped, report.not_mapped.length],
    [5, 3, 1, 1, 3],
  );
  assert.deepEqual(report.revisions, { stored: 1, refused: 1 });
  assert.deepEqual(report.links, { created: 2, existing: 0, unresolved: 1 });
  assert.ok(report.refusals.some((r) => r.where === 'A (version 2)' && r.error === 'POLICY_REJECTED'));

  const kept = await ctx.store.items.get('MEM-0123456789ab');
  assert.equal(kept?.content, 'An item memctl named', 'an engram id from the source is kept');
  assert.deepEqual([kept?.corpus_id, kept?.injectable, kept?.secrecy], ['docs', false, 'S0']);
  const items = (await ctx.store.items.list({ limit: 100 })).items.filter((i) => i.title === 'Session tokens');
  assert.equal(items.length, 1);
  const a = items[0];
  assert.ok(a !== undefined);
  assert.deepEqual([a.version, a.type, a.tier, a.validation, a.tags], [3, 'decision', 'ltm', 'verified', ['auth']]);
  const history = await ctx.store.history.listRevisions(a.id);
  assert.deepEqual(
    history.map((r) => [r.version, r.item.content, r.changed_at]),
    [[1, 'Sessions last 60 minutes', '2024-01-01T00:00:00.000Z'], [3, 'Sessions last 15 minutes', a.updated_at]],
    'the past version the policy refused is left out of the history',
  );

  const later = await runImport(ctx, source([{ record: { sourceId: 'E', content: 'Later note', links: [{ to: 'A', type: 'derived_from' }] } }]), input);
  assert.deepEqual(later.links, { created: 1, existing: 0, unresolved: 0 }, 'a link to a record of an earlier run');

  // What engram did to an imported item, and the record does not state, survives a re-import.
  const b = (await ctx.store.items.list({ limit: 100 })).items.find((i) => i.content.startsWith('Refresh'));
  assert.ok(b !== undefined);
  await ctx.store.transaction(() => ctx.writer.amend({ ...b, version: b.version + 1, tier: 'mtm', validation: 'verified' }, 'verify'));
  const again = await runImport(ctx, source(entries), input);
  assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 3]);
  const kept2 = await ctx.store.items.get(b.id);
  assert.deepEqual([kept2?.tier, kept2?.validation], ['mtm', 'verified'], 'engram\'s promotion and verification kept');
  assert.deepEqual(again.links, { created: 0, existing: 2, unresolved: 1 });

  const changed = entries.map((e) => ('record' in e && e.record.sourceId === 'B' ? { record: { ...e.record, content: 'Refresh tokens live in HTTP-only cookies' } } : e));
  const before = (await ctx.store.items.list({ limit: 100 })).items.map((i) => [i.id, i.version]);
  const dry = await runImport(ctx, source(changed), { ...input, dryRun: true });
  assert.deepEqual([dry.created, dry.updated, dry.unchanged, dry.dry_run], [0, 1, 2, true]);
  assert.deepEqual((await ctx.store.items.list({ limit: 100 })).items.map((i) => [i.id, i.version]), before, 'the dry run wrote nothing');

  assert.equal(storeBytes(db).indexOf(Buffer.from(secret)), -1, 'the refused past version is not in the store');
});

test('CLI: an unknown source, a wrong path, a file of another tool and --dry-run without --from are PARAM_ERRORs', TIMEOUT, (t) => {
  const dir = tempDir(t, 'engram-import-cli-');
  const db = join(dir, 'memory.db');
  const json = join(dir, 'memories.json');
  writeFileSync(json, JSON.stringify({ memories: [{ id: 'a', content: 'x' }] }, null, 2));
  mkdirSync(join(dir, 'folder'));
  const cases: [string[], RegExp][] = [
    [['import', '--from', 'evernote', json], /Unknown source 'evernote'/],
    [['import', '--from', 'memtool', join(dir, 'folder')], /is a folder/],
    [['import', '--from', 'memtool', json], /not a memtool export/],
    [['import', '--from', 'basic-memory', json], /is a file/],
    [['import', '--from', 'mem-context', join(dir, 'missing.json')], /Cannot read/],
    [['import', '--dry-run', json], /--dry-run applies to --from only/],
  ];
  for (const [args, message] of cases) {
    const run = cli(['--db', db, ...args]);
    assert.equal(run.code, 2, `${args.join(' ')}: exit 2`);
    assert.equal(run.error?.error, 'PARAM_ERROR');
    assert.match(String(run.error?.message), message);
  }
  const text = cli(['--db', db, '--format', 'text', 'import', '--from', 'mem-context', json, '--dry-run']);
  assert.equal(text.code, 0);
  assert.match(text.stdout, /dry run: nothing written/);
  assert.match(text.stdout, /type \(episodic \| semantic \| permanent\) → tier/);
});
