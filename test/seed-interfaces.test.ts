/**
 * The seeds' interfaces kept (issue 20): `push --tags` tags what `--source` ingests, as in memctl
 * and RAGIX, with `--filter-tags` for filtering; `init --print-env` prints a line for `eval`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, tempDir } from './helpers.js';

test('push Q --source F --tags x tags F\'s chunks; recall --tags x finds them; --filter-tags filters', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  writeFileSync(join(dir, 'release.md'), '# Release\n\nRelease steps: tag the commit, build, publish the package.\n');
  writeFileSync(join(dir, 'other.md'), '# Other\n\nThe release calendar is kept elsewhere.\n');
  assert.equal(cli(['ingest', '--db', db, 'other.md', '--injectable'], { cwd: dir }).code, 0);

  const push = cli(['push', '--db', db, 'release steps', '--source', 'release.md', '--tags', 'x'], { cwd: dir });
  assert.equal(push.code, 0, push.stderr);
  assert.match(push.stdout, /Release steps: tag the commit/, 'the memctl habit prints the recall');
  assert.doesNotMatch(push.stderr, /filters the recall/, 'with --source, --tags is no filter');

  const tagged = cli(['recall', '--db', db, 'release', '--tags', 'x', '--json']);
  assert.equal(tagged.code, 0, tagged.stderr);
  const sources = (tagged.json?.injected as { id: string }[]).map((i) => i.id);
  const listed = cli(['list', '--db', db, '--tags', 'x']).json?.items as { source: string; tags: string[] }[];
  assert.deepEqual(listed.map((i) => i.source), ['release.md'], 'only F\'s chunks carry the tag');
  assert.ok(listed[0]?.tags.includes('x'));
  assert.equal(sources.length, 1, 'recall --tags x finds F\'s chunk and not the other file');
  assert.match(cli(['recall', '--db', db, 'release', '--tags', 'x']).stdout, /Release steps/);

  // Filtering in push has its own flag.
  const filtered = cli(['push', '--db', db, 'release', '--filter-tags', 'x', '--json']);
  assert.equal(filtered.json?.matched, 1);
  const unfiltered = cli(['push', '--db', db, 'release', '--json']);
  assert.equal(unfiltered.json?.matched, 2);
  // Without --source there is nothing to tag: --tags filters as before, with a warning.
  const legacy = cli(['push', '--db', db, 'release', '--tags', 'x', '--json']);
  assert.equal(legacy.json?.matched, 1);
  assert.match(legacy.stderr, /push --tags without --source filters the recall, as before; say --filter-tags/);
  assert.match(cli(['push', '--help']).stdout, /--filter-tags <tags>/);
});

test('push --source --tags with --filter-tags: tags the files, then filters on the other tags', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'a.md'), '# Alpha\n\nThe deploy window opens at nine.\n');
  const run = cli(['push', '--db', db, 'deploy window', '--source', 'docs', '--tags', 'ops,deploy', '--filter-tags', 'ops'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /deploy window opens at nine/);
  const item = (cli(['list', '--db', db]).json?.items as { tags: string[] }[])[0];
  assert.ok(item !== undefined && ['ops', 'deploy'].every((tag) => item.tags.includes(tag)), JSON.stringify(item));
  assert.equal(cli(['push', '--db', db, 'deploy window', '--filter-tags', 'nope']).stdout, '');
});
