/**
 * The seeds' interfaces kept (issue 20): `push --tags` tags what `--source` ingests, as in memctl
 * and RAGIX, with `--filter-tags` for filtering; `init --print-env` prints a line for `eval`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, cli, tempDir } from './helpers.js';

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

/** Runs `eval "$(engram init DIR --print-env)"` in sh, then prints ENGRAM_DB and runs `engram stats` there. */
function evalInit(cwd: string, dir: string) {
  const script = 'eval "$("$NODE" "$CLI" init "$DIR" --print-env)" && printf \'%s\\n\' "$ENGRAM_DB" && "$NODE" "$CLI" stats --json';
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: cwd, NODE: process.execPath, CLI, DIR: dir };
  return spawnSync('sh', ['-c', script], { cwd, env, encoding: 'utf8' });
}

test('init --print-env: one export line for eval, absolute and quoted; sh sets ENGRAM_DB to the store', (t) => {
  const root = tempDir(t);
  for (const name of ['plain', 'with space', 'it\'s "quoted" $HOME `x`']) {
    const dir = join(root, name);
    mkdirSync(dir);
    const db = join(dir, '.engram', 'memory.db');
    const run = evalInit(root, dir);
    assert.equal(run.status, 0, run.stderr);
    const [printed, stats] = run.stdout.split('\n');
    assert.equal(printed, db, `ENGRAM_DB set to the absolute path for ${name}`);
    assert.equal((JSON.parse(stats ?? '') as { total: number }).total, 0, 'the next command finds the store');
    assert.match(run.stderr, /Initialised /);
  }
  // Relative DIR: the path printed is absolute; a second run says so and prints the same line.
  const first = cli(['init', 'plain', '--print-env'], { cwd: root });
  assert.equal(first.stdout, `export ENGRAM_DB=${join(root, 'plain', '.engram', 'memory.db')}\n`);
  assert.match(first.stderr, /Already initialised/);
  assert.equal(cli(['init', 'with space', '--print-env'], { cwd: root }).stdout, `export ENGRAM_DB='${join(root, 'with space', '.engram', 'memory.db')}'\n`);
  const json = cli(['init', 'plain', '--print-env', '--json'], { cwd: root }).json;
  assert.deepEqual(json?.env, { ENGRAM_DB: join(root, 'plain', '.engram', 'memory.db') });
  // --db names the file: that file is the one exported.
  const file = join(root, 'work.db');
  assert.equal(cli(['init', '--db', file, '--print-env']).stdout, `export ENGRAM_DB=${file}\n`);
});
