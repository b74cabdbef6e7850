/**
 * Service and storage guarantees (issue 14, item 5): a hard delete or purge leaves no byte of the
 * item's text in the database, WAL or SHM; `pull` stores all of its input or nothing; a store
 * whose pages fail the open check is refused by read commands without a write; `doctor` verifies
 * every content hash; import validates ids, takes a BOM and reports unknown keys.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { cli, tempDir } from './helpers.js';

/** A lowercase marker no tokenizer splits or stems: what the grep looks for. */
const marker = (): string => `zq${randomBytes(12).toString('hex')}x`;

/** Checkpoints and truncates the WAL, then returns the bytes of the db, -wal and -shm files. */
function storedBytes(db: string): string {
  const raw = new Database(db);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  return [db, `${db}-wal`, `${db}-shm`].map((f) => (existsSync(f) ? readFileSync(f).toString('latin1') : '')).join('');
}

function put(db: string, args: string[]): string {
  const run = cli(['put', '--db', db, '--format', 'json', ...args]);
  assert.equal(run.code, 0, run.stderr);
  return String((run.json as { item: { id: string } }).item.id);
}

test('delete --hard and cleanup --purge leave none of the item\'s text in the db, WAL or SHM', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  put(db, ['--content', 'A neighbour note that stays in the store']);
  const hard = marker();
  const purged = marker();
  const id = put(db, ['--title', `title ${hard}`, '--tags', `tag${hard.slice(2, 10)}`, '--content', `The code word is ${hard} for the vault`]);
  // A second version: the revision history holds the text too.
  assert.equal(cli(['put', '--db', db, '--id', id, '--content', `Now the code word is ${hard} again`]).code, 0);
  const old = put(db, ['--content', `Archived then purged: ${purged} in the old notes`]);
  assert.equal(cli(['delete', '--db', db, old]).code, 0, 'archived first');
  const before = storedBytes(db);
  assert.ok(before.includes(hard) && before.includes(purged), 'the grep finds the markers while they are stored');

  assert.equal(cli(['delete', '--db', db, id, '--hard']).code, 0);
  const purge = cli(['cleanup', '--db', db, '--purge', '0', '--apply', '--format', 'json']);
  assert.equal(purge.code, 0, purge.stderr);
  assert.equal((purge.json as { purged: number }).purged, 1);
  const after = storedBytes(db);
  for (const gone of [hard, purged]) {
    // FTS5 stores terms prefix-compressed: the tail of a term would show if the term stayed.
    for (const piece of [gone, gone.slice(-12), gone.slice(2, 14)]) assert.ok(!after.includes(piece), `${piece} is gone`);
  }
  assert.ok(after.includes('neighbour'), 'the other item stays');
  const raw = new Database(db, { readonly: true });
  t.after(() => raw.close());
  const events = raw.prepare('SELECT action, details FROM memory_events WHERE item_id IN (?, ?)').all(id, old) as { action: string; details: string }[];
  assert.ok(events.some((e) => e.action === 'delete') && events.some((e) => e.action === 'purge'), 'the deletion is recorded');
  assert.equal(raw.prepare('SELECT count(*) FROM memory_revisions WHERE item_id IN (?, ?)').pluck().get(id, old), 0);
});

/** Seeded random characters from `alphabet` (deterministic per seed). */
function randomChars(count: number, seed: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let state = seed;
  let out = '';
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

/** A store holding one item, and a check that it still holds exactly that. */
function seeded(t: { after: (fn: () => void) => void }) {
  const db = join(tempDir(t), 'memory.db');
  put(db, ['--content', 'The release train leaves on Thursdays']);
  const total = () => (cli(['stats', '--db', db, '--format', 'json']).json as { total: number }).total;
  return { db, total };
}

test('pull is all or nothing: a private key across the split of a long answer stores nothing', (t) => {
  const { db, total } = seeded(t);
  const base64 = randomChars(64 * 40, 11, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
  const lines = base64.match(/.{64}/g) ?? [];
  const begin = ['-----BEGIN', 'RSA PRIVATE', 'KEY-----'].join(' ');
  const end = ['-----END', 'RSA PRIVATE', 'KEY-----'].join(' ');
  const intro = Array.from({ length: 12 }, (_, i) => `Step ${i}: the deploy script copies the build to host ${i} and restarts it.`).join('\n\n');
  // 2,600 characters of key in one paragraph: more than a split part can hold, so the split cuts it.
  const answer = `${intro}\n\n${begin}\n${lines.join('\n')}\n${end}\n\nThat is the whole runbook.\n`;
  const run = cli(['pull', '--db', db], { input: answer });
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.error?.error, 'POLICY_REJECTED');
  assert.equal(total(), 1, 'nothing stored');
  const bytes = storedBytes(db);
  for (const line of [lines[0] ?? '', lines[20] ?? '', lines[39] ?? '']) assert.ok(!bytes.includes(line.slice(0, 12)), 'no piece of the key');
  assert.ok(!bytes.includes('deploy script copies'), 'not even the harmless head');
});

test('pull: JSON nested too deep is PARAM_ERROR before anything is stored', (t) => {
  const { db, total } = seeded(t);
  let provenance = '"leaf"';
  for (let i = 0; i < 40; i++) provenance = `{"a":${provenance}}`;
  const input = `[{"content":"A fine first note about queues"},{"content":"deep note","provenance":${provenance}}]`;
  const run = cli(['pull', '--db', db], { input });
  assert.equal(run.code, 2, run.stderr);
  assert.equal(run.error?.error, 'PARAM_ERROR');
  assert.match(String(run.error?.message), /nests deeper than 32 levels/);
  assert.equal(total(), 1, 'the store is unchanged');
  let deep = '1';
  for (let i = 0; i < 100_000; i++) deep = `[${deep}]`;
  assert.equal(cli(['pull', '--db', db], { input: deep }).error?.error, 'PARAM_ERROR', 'very deep input: no stack overflow');
});

test('pull: good and refused proposals mixed store nothing and exit with the policy code', (t) => {
  const { db, total } = seeded(t);
  const token = `gh${'p_'}${randomChars(36, 5)}`;
  const good = [{ content: 'Queues drain within five seconds' }, { content: 'The cache holds ten minutes of data' }];
  const secret = cli(['pull', '--db', db], { input: JSON.stringify([...good, { content: `The CI token is ${token}` }]) });
  assert.deepEqual([secret.code, secret.error?.error], [1, 'POLICY_REJECTED']);
  assert.ok(!JSON.stringify(secret.error).includes(token.slice(4, 16)), 'the error does not echo the secret');
  // Each proposal is checked too: one over the size limit refuses the whole input, by position.
  const long = cli(['pull', '--db', db], { input: JSON.stringify([...good, { content: 'word '.repeat(500) }]) });
  assert.deepEqual([long.code, long.error?.error], [1, 'POLICY_REJECTED']);
  assert.deepEqual((long.error?.refused as { index: number; rules: string[] }[]).map((r) => [r.index, r.rules]), [[3, ['size.content']]]);
  assert.equal(total(), 1, 'nothing stored');
  assert.ok(!storedBytes(db).includes('Queues drain'), 'not even the good ones');
  const fine = cli(['pull', '--db', db, '--format', 'json'], { input: JSON.stringify(good) });
  assert.deepEqual([fine.code, (fine.json as { stored: number }).stored], [0, 2]);
});

/** A store of `count` items, closed (WAL checkpointed away), and its page size. */
function storeOf(t: { after: (fn: () => void) => void }, count: number): string {
  const db = join(tempDir(t), 'memory.db');
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ id: `MEM-${i.toString(16).padStart(12, '0')}`, content: `Service ${i} answers in ${i % 97} ms; queue ${i % 13} ${'detail '.repeat(20)}` }));
  const run = cli(['import', '--db', db, '-'], { input: `${lines.join('\n')}\n` });
  assert.equal(run.code, 0, run.stderr);
  return db;
}

/** Overwrites the b-tree page header of page `pageno` with an invalid page type. */
function damagePage(db: string, pageno: number): void {
  const raw = new Database(db, { readonly: true });
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  raw.close();
  const bytes = readFileSync(db);
  bytes.fill(0x7f, (pageno - 1) * pageSize, (pageno - 1) * pageSize + 8);
  writeFileSync(db, bytes);
}

function pages(db: string, sql: string, ...params: unknown[]): number[] {
  const raw = new Database(db, { readonly: true });
  try {
    return raw.prepare(sql).pluck().all(...params) as number[];
  } finally {
    raw.close();
  }
}

test('read commands refuse a store whose root pages are damaged, with STORE_CORRUPT, writing nothing', (t) => {
  const db = storeOf(t, 400);
  const [root] = pages(db, 'SELECT rootpage FROM sqlite_master WHERE name = \'memory_items\'');
  assert.ok(root !== undefined && pages(db, 'SELECT pageno FROM dbstat WHERE name = \'memory_items\'').length > 10, 'an interior root');
  damagePage(db, root);
  const before = readFileSync(db);
  for (const args of [['recall', 'service queue'], ['search', 'queue'], ['list'], ['get', 'MEM-000000000001'], ['show', 'MEM-000000000001'], ['export'], ['stats']]) {
    const run = cli([...args, '--db', db]);
    assert.equal(run.code, 4, `${args[0]}: ${run.stderr}`);
    assert.equal(run.error?.error, 'STORE_CORRUPT', args[0]);
    assert.match(String(run.error?.hint), /engram doctor/);
    assert.deepEqual((run.error?.trees as string[] | undefined) ?? [], ['memory_items'], args[0]);
  }
  assert.ok(readFileSync(db).equals(before), 'the file is unchanged');
  assert.ok(!existsSync(`${db}-wal`) || readFileSync(`${db}-wal`).length === 0, 'no WAL frames written');
  const doctor = cli(['doctor', '--db', db, '--format', 'json']);
  assert.equal(doctor.code, 4, 'doctor opens it and reports');
  assert.notDeepEqual((doctor.json as { integrity: string[] }).integrity, ['ok']);
});

test('a damaged page off the checked path: the query that reads it answers STORE_CORRUPT', (t) => {
  const db = storeOf(t, 400);
  const leaves = pages(db, 'SELECT pageno FROM dbstat WHERE name = \'memory_items\' AND pagetype = \'leaf\' ORDER BY path');
  damagePage(db, leaves[Math.floor(leaves.length / 2)] ?? 0);
  assert.equal(cli(['get', 'MEM-000000000000', '--db', db]).code, 0, 'the open check passes: the page is not on a leftmost path');
  const run = cli(['export', '--db', db]);
  assert.deepEqual([run.code, run.error?.error], [4, 'STORE_CORRUPT']);
});

test('a full-text table whose config page SQLite cannot read is refused as a damaged store, not as an internal error', (t) => {
  const db = storeOf(t, 20);
  // The last cell of the config table's root page sent past the end of the page: dbstat reads the
  // page as sound, and FTS5 fails to open the table.
  const [root] = pages(db, 'SELECT rootpage FROM sqlite_master WHERE name = \'memory_fts_config\'');
  const raw = new Database(db, { readonly: true });
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  raw.close();
  const bytes = readFileSync(db);
  const at = ((root ?? 0) - 1) * pageSize;
  const header = bytes[at] === 0x0a || bytes[at] === 0x0d ? 8 : 12;
  bytes.writeUInt16BE(pageSize - 2, at + header + 2 * (bytes.readUInt16BE(at + 3) - 1));
  writeFileSync(db, bytes);
  const before = readFileSync(db);
  for (const args of [['get', 'MEM-000000000001'], ['search', 'queue'], ['put', '--content', 'A new note']]) {
    const run = cli([...args, '--db', db]);
    assert.deepEqual([run.code, run.error?.error], [4, 'STORE_CORRUPT'], `${args[0]}: ${run.stderr}`);
  }
  assert.ok(readFileSync(db).equals(before), 'the file is unchanged');
});

test('doctor verifies every content_hash and names the items changed outside engram', (t) => {
  const db = storeOf(t, 50);
  assert.equal(cli(['doctor', '--db', db]).code, 0);
  const raw = new Database(db);
  raw.prepare('UPDATE memory_items SET content = ? WHERE id = ?').run('Tampered with outside engram', 'MEM-000000000007');
  raw.close();
  const doctor = cli(['doctor', '--db', db, '--format', 'json']);
  assert.equal(doctor.code, 4);
  const report = doctor.json as { content_hashes: { checked: number; mismatched: string[] }; problems: string[] };
  assert.deepEqual(report.content_hashes, { checked: 50, mismatched: ['MEM-000000000007'] });
  assert.match(report.problems.join('\n'), /content_hash differs .* 1 item\(s\).*MEM-000000000007/);
  assert.match(cli(['doctor', '--db', db, '--format', 'text']).stdout, /content hashes\s+50 checked, 1 mismatched/);
});

test('import: ids are validated per line, a BOM is skipped, unknown keys are counted (and refused with --strict)', (t) => {
  const db = join(tempDir(t), 'memory.db');
  const lines = [
    `\uFEFF${JSON.stringify({ id: 'MEM-00000000000a', content: 'First line after a BOM', colour: 'red' })}`,
    JSON.stringify({ id: 'MEM-XYZ', content: 'A malformed engram id' }),
    JSON.stringify({ id: '550e8400-e29b-41d4-a716-446655440000', content: 'A UUID from another tool', colour: 'blue' }),
    JSON.stringify({ id: 'has space', content: 'Not an id' }),
    JSON.stringify({ id: 'a'.repeat(65), content: 'Too long an id' }),
    JSON.stringify({ content: 'A revision with an extra key', version: 2, revisions: [{ version: 1, changed_at: '2026-01-01T00:00:00Z', actor: null, reason: 'create', mood: 'x', item: { content: 'old', shade: 1 } }] }),
    JSON.stringify({ content: 'A secret-looking key name', [`AKIA${randomChars(16, 3, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`]: 1 }),
  ];
  const run = cli(['import', '--db', db, '-', '--format', 'json'], { input: `${lines.join('\n')}\n` });
  assert.equal(run.code, 1, 'invalid lines fail the run');
  const report = run.json as {
    created: number;
    errors: { line: number; error: string; message: string }[];
    unknown_keys: Record<string, number>;
  };
  assert.equal(report.created, 4);
  assert.deepEqual(report.errors.map((e) => [e.line, e.error]), [[2, 'PARAM_ERROR'], [4, 'PARAM_ERROR'], [5, 'PARAM_ERROR']]);
  assert.match(report.errors[0]?.message ?? '', /^Invalid id: expected MEM- and 12 lowercase hex digits/);
  assert.deepEqual(report.unknown_keys, { 'colour': 2, 'revisions.mood': 1, 'revisions.item.shade': 1, '[key of 20 characters]': 1 });
  assert.match(run.stderr, /unknown key colour ignored on 2 lines/);
  assert.ok(!run.stdout.includes('AKIA') && !run.stderr.includes('AKIA'), 'a key name the policy refuses is not shown');
  const first = cli(['get', 'MEM-00000000000a', '--db', db, '--format', 'json']).json as { item: { content: string } };
  assert.equal(first.item.content, 'First line after a BOM');

  const strict = cli(['import', '--db', db, '-', '--strict', '--format', 'json'], { input: `${lines[2]}\n${JSON.stringify({ content: 'plain' })}\n` });
  assert.equal(strict.code, 1);
  const strictReport = strict.json as { created: number; errors: { line: number; message: string }[] };
  assert.deepEqual(strictReport.errors.map((e) => [e.line, e.message]), [[1, 'Unknown field(s): colour']]);
  assert.equal(strictReport.created, 1);
});
