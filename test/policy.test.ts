/**
 * The write policy against the corpora in test/fixtures/policy/ (adversarial: every case gets its
 * expected verdict; benign: all accepted, and so is every file of this repository), and the
 * governance guarantees end to end: a rejected secret is stored and echoed nowhere, quarantined
 * items are never recalled, review / verify / reject, and output redaction by secrecy tier.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkPolicy, EngramError, openEngram, POLICY_RULES } from '../src/index.js';
import { admitWrite } from '../src/items/admission.js';
import { createItem } from '../src/items/build-item.js';
import { MAX_CONTENT_CHARS } from '../src/policy/rules.js';
import { createSqliteStore } from '../src/store/sqlite/store.js';
import { cli, hostile, policyCorpus, tempDir } from './helpers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'policy');

const adversarial = policyCorpus('adversarial.jsonl');
const benign = policyCorpus('benign.jsonl');
const secretCases = adversarial.filter((c) => c.secret !== undefined);
const caseOf = (group: string, note: RegExp) => ({ text: hostile(group, note) });

/** Every 12-character window of `secret` (all of it, when shorter) is absent from `text`. */
function assertNoPieceOf(secret: string, text: string, where: string): void {
  const width = Math.min(12, secret.length);
  assert.ok(width >= 8, `${where}: fixture secret too short to check`);
  for (let i = 0; i + width <= secret.length; i++) {
    assert.ok(!text.includes(secret.slice(i, i + width)), `${where} shows part of the secret`);
  }
}

test('adversarial corpus: every case gets its expected verdict (detection rate per group)', (t) => {
  assert.ok(adversarial.length >= 300, `${adversarial.length} cases`);
  const rates = new Map<string, { total: number; detected: number }>();
  const misses: string[] = [];
  for (const c of adversarial) {
    const { verdict, matches } = checkPolicy({ content: c.text });
    const rate = rates.get(c.group) ?? { total: 0, detected: 0 };
    rate.total++;
    if (verdict === c.expect) rate.detected++;
    else misses.push(`${c.group} ${c.note}: ${verdict} ${matches.map((m) => m.rule).join(',')}`);
    rates.set(c.group, rate);
  }
  for (const [group, { total, detected }] of rates) t.diagnostic(`${group}: ${detected}/${total}`);
  assert.deepEqual(misses, []);
  assert.deepEqual([...rates.keys()].sort(), ['injection', 'instruction', 'pii', 'secret', 'self-instruction']);
});

test('benign corpus: all accepted (false-positive rate 0)', () => {
  assert.ok(benign.length >= 300, `${benign.length} cases`);
  const flagged = benign
    .map((c) => ({ c, v: checkPolicy({ content: c.text }) }))
    .filter(({ v }) => v.verdict !== 'accept')
    .map(({ c, v }) => `${c.group}: ${c.text} → ${v.matches.map((m) => m.rule).join(',')}`);
  assert.deepEqual(flagged, []);
});

/** The files under `dir` whose name `name` accepts, in the folders `folder` accepts. */
function filesUnder(dir: string, name: RegExp, folder: (path: string, base: string) => boolean = () => true): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (folder(path, entry.name)) files.push(...filesUnder(path, name, folder));
    } else if (name.test(entry.name)) {
      files.push(path);
    }
  }
  return files;
}

/** Each of `files` the policy does not accept, whole, with its rules. */
function unaccepted(files: readonly string[]): string[] {
  return files
    .map((file) => ({ file, v: checkPolicy({ content: readFileSync(file, 'utf8') }, { ignoreSize: true }) }))
    .filter(({ v }) => v.verdict !== 'accept')
    .map(({ file, v }) => `${relative(ROOT, file)}: ${v.matches.map((m) => `${m.rule} ${m.excerpt}`).join('; ')}`);
}

test('every file of this repository passes the policy (the adversarial fixtures aside)', () => {
  const skip = new Set(['node_modules', 'dist', '.git', 'results']);
  const files = filesUnder(ROOT, /\.(ts|js|mjs|json|md|yml|yaml|txt)$|^run$/, (path, base) => !skip.has(base) && path !== FIXTURES);
  assert.ok(files.length > 50, `${files.length} files`);
  assert.deepEqual(unaccepted(files), []);
});

test('every file of the bundle passes the policy too: the published package holds no phrase it refuses', () => {
  const files = filesUnder(join(ROOT, 'dist', 'bundle'), /\.(cjs|js|json|txt)$/);
  assert.ok(files.length > 50, `${files.length} files`);
  assert.deepEqual(unaccepted(files), []);
});

test('verdicts never repeat a secret: every excerpt is masked', () => {
  assert.ok(secretCases.length >= 200);
  for (const c of secretCases) {
    const verdict = checkPolicy({ content: c.text });
    assert.equal(verdict.verdict, 'reject');
    assertNoPieceOf(c.secret ?? '', JSON.stringify(verdict), c.note ?? '');
  }
});

test('a rejected secret appears nowhere: not in the database file, WAL, events, index or any output', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  assert.equal(cli(['init', dir]).code, 0);
  assert.equal(cli(['put', '--db', db, '--content', 'a clean note so the store has pages']).code, 0);
  const chosen = secretCases.filter((_, i) => i % 9 === 0);
  let output = '';
  for (const c of chosen) {
    for (const run of [
      cli(['put', '--db', db, '--content', c.text]),
      cli(['put', '--db', db, '--verbose', '--format', 'text', '-'], { input: c.text }),
      cli(['put', '--db', db, '--title', c.text, '--content', 'title carries it']),
      cli(['import', '--db', db, '-'], { input: `${JSON.stringify({ content: c.text })}\n` }),
    ]) {
      output += run.stdout + run.stderr;
      assert.notEqual(run.stderr, '', 'the rejection is reported');
    }
  }
  const stats = cli(['stats', '--db', db]).json;
  assert.equal(stats?.total, 1, 'nothing but the clean note was stored');
  const files = ['memory.db', 'memory.db-wal', 'memory.db-shm'].map((f) => {
    try {
      return readFileSync(join(dir, f)).toString('latin1');
    } catch {
      return '';
    }
  });
  for (const c of chosen) {
    assertNoPieceOf(c.secret ?? '', output, `output for ${c.note}`);
    for (const bytes of files) assertNoPieceOf(c.secret ?? '', bytes, `database for ${c.note}`);
  }
  const put = cli(['put', '--db', db, '--content', chosen[0]?.text ?? '']);
  assert.equal(put.code, 1);
  assert.equal(put.stdout, '');
  assert.equal(put.error?.error, 'POLICY_REJECTED');
  assert.match(String(put.error?.hint), /secret/);
  assert.ok(Array.isArray(put.error?.rules));
});

test('quarantine: stored as STM, not injectable, 72 h expiry; search flags it, recall never injects it', async (t) => {
  const at = '2026-11-23T10:00:00.000Z';
  const engram = await openEngram({ path: join(tempDir(t), 'm.db'), clock: () => new Date(at) });
  t.after(() => engram.close());
  const pii = caseOf('pii', /^pii 1$/).text;
  const held = await engram.put({ content: `${pii} Deployment runbook owner.`, tier: 'ltm', injectable: true });
  assert.equal(held.policy.verdict, 'quarantine');
  assert.deepEqual(held.policy.matches.map((m) => m.rule), ['pii.email']);
  assert.equal(held.item.quarantined, true);
  assert.equal(held.item.injectable, false);
  assert.equal(held.item.tier, 'stm');
  assert.equal(held.item.expires_at, '2026-11-26T10:00:00.000Z');
  await engram.put({ content: 'Deployment runbook lives in docs/runbook.md', tier: 'ltm' });

  assert.equal((await engram.search({ query: 'deployment runbook' })).items.some((i) => i.quarantined), false);
  const flagged = await engram.search({ query: 'deployment runbook', quarantined: 'include' });
  assert.deepEqual(flagged.items.map((i) => i.quarantined).sort(), [false, true]);
  const recall = await engram.recall({ query: 'deployment runbook owner' });
  assert.equal(recall.injected.length, 1);
  assert.ok(!recall.inject_text.includes(held.item.id));
  assert.ok(!recall.inject_text.includes(pii));

  // A later update cannot lift the quarantine by itself.
  const updated = await engram.put({ id: held.item.id, content: 'Deployment runbook owner: the platform team.', injectable: true });
  assert.equal(updated.item.quarantined, true);
  assert.equal(updated.item.injectable, false);
  assert.equal((await engram.stats()).quarantined, 1);

  const review = await engram.review({ withinHours: 100 });
  assert.deepEqual(review.quarantined.map((i) => [i.id, i.policy_rules]), [[held.item.id, ['pii.email']]]);
  assert.deepEqual(review.expiring.map((i) => i.id), [held.item.id]);

  const verified = await engram.verify(held.item.id);
  assert.equal(verified.action, 'verified');
  assert.deepEqual(
    [verified.item.quarantined, verified.item.injectable, verified.item.expires_at, verified.item.validation],
    [false, true, null, 'verified'],
  );
  assert.equal((await engram.verify(held.item.id)).action, 'unchanged');
  assert.ok((await engram.recall({ query: 'deployment runbook owner' })).inject_text.includes(held.item.id));
  assert.deepEqual(
    (await engram.history(held.item.id)).map((r) => r.reason),
    ['create', 'update', 'verify'],
  );
});

test('reject archives an item; verify re-checks the reject rules on stored content', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'm.db');
  const secret = secretCases[0];
  assert.ok(secret);
  // A row written before the policy existed, straight through the store.
  const store = createSqliteStore(path);
  const legacy = createItem('MEM-legacy000001', { content: secret.text }, '2026-01-01T00:00:00.000Z');
  await store.transaction(async (tx) => {
    await tx.items.insert(legacy);
    await tx.text.put(legacy, { segmented: '' });
  });
  await store.close();
  const engram = await openEngram({ path });
  t.after(() => engram.close());
  await assert.rejects(engram.verify(legacy.id), (e: unknown) => e instanceof EngramError && e.code === 'POLICY_REJECTED');
  const rejected = await engram.reject(legacy.id, { reason: 'holds a credential' });
  assert.equal(rejected.action, 'rejected');
  assert.deepEqual([rejected.item.archived, rejected.item.injectable], [true, false]);
  assert.equal((await engram.reject(legacy.id)).action, 'unchanged');
  await assert.rejects(engram.verify('MEM-nope'), (e: unknown) => e instanceof EngramError && e.code === 'NOT_FOUND');
});

test('size, provenance and privileged writers', () => {
  const at = '2026-11-23T10:00:00.000Z';
  const context = { operation: 'put', actor: null, now: at } as const;
  const item = (content: string, type?: 'pointer' | 'note') => createItem('MEM-000000000001', { content, type }, at);
  assert.equal(admitWrite(item('a'.repeat(MAX_CONTENT_CHARS)), context).policy.verdict, 'accept');
  assert.equal(admitWrite(item('密'.repeat(MAX_CONTENT_CHARS)), context).policy.verdict, 'accept');
  assert.equal(admitWrite(item('🚀'.repeat(MAX_CONTENT_CHARS)), context).policy.verdict, 'accept', 'characters, not UTF-16 units');
  assert.throws(
    () => admitWrite(item('a'.repeat(MAX_CONTENT_CHARS + 1)), context),
    (e: unknown) => e instanceof EngramError && e.code === 'POLICY_REJECTED' && /ingest/.test(e.hint ?? ''),
  );
  assert.equal(admitWrite(item('a'.repeat(50_000), 'pointer'), context).policy.verdict, 'accept');

  const proposal = { ...context, operation: 'propose' } as const;
  assert.equal(admitWrite(item('The build uses esbuild'), proposal).policy.matches[0]?.rule, 'provenance.missing');
  const sourced = { ...item('The build uses esbuild'), provenance: { source: 'package.json' } };
  assert.equal(admitWrite(sourced, proposal).policy.verdict, 'accept');

  const privileged = { ...context, privileged: true };
  const pii = caseOf('pii', /^pii 4$/).text;
  assert.equal(admitWrite(item(pii), privileged).policy.verdict, 'accept', 'quarantine rules skipped');
  assert.throws(() => admitWrite(item(caseOf('injection', /^phrasing 1 \//).text), privileged), /POLICY_REJECTED|Rejected/);
  assert.throws(() => admitWrite(item(secretCases[3]?.text ?? ''), privileged), /Rejected by policy/);
});

test('import stores the clean lines and reports each rejected one by line number and rule', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const injection = caseOf('injection', /^phrasing 2 \//).text;
  const report = await engram.importLines([
    JSON.stringify({ content: 'clean one' }),
    JSON.stringify({ content: injection }),
    JSON.stringify({ content: 'clean two' }),
    JSON.stringify({ content: 'history hides it', version: 2, revisions: [
      { version: 1, changed_at: '2026-01-01T00:00:00.000Z', actor: null, reason: 'create', item: { content: secretCases[5]?.text } },
    ] }),
    JSON.stringify({ content: caseOf('pii', /^pii 2$/).text }),
  ]);
  assert.equal(report.created, 3);
  assert.deepEqual(report.errors.map((e) => [e.line, e.error]), [[2, 'POLICY_REJECTED'], [4, 'POLICY_REJECTED']]);
  assert.equal((await engram.list({ quarantined: 'only' })).total, 1);
});

test('secrecy tiers redact search, recall, show and export output; stored data never changes', async (t) => {
  const engram = await openEngram({ path: join(tempDir(t), 'm.db') });
  t.after(() => engram.close());
  const content = 'Backups of /srv/data go to backup01.corp.internal (10.1.2.3) as 9f86d081884c7d65; owner ops@example.com';
  const { item } = await engram.put({ content, title: 'backups', source: '/etc/cron.d/backup' });
  const s2 = (await engram.search({ query: 'backups', secrecy: 'S2' })).items[0];
  assert.equal(s2?.content, 'Backups of /srv/data go to [HOST] ([IP]) as [HASH]; owner ops@example.com');
  const s0 = await engram.show(item.id, { secrecy: 'S0' });
  assert.equal(s0.item.content, 'Backups of [PATH] go to [HOST] ([IP]) as [HASH]; owner [EMAIL]');
  assert.equal(s0.item.source, '[PATH]');
  const block = (await engram.recall({ query: 'backups', secrecy: 'S0' })).inject_text;
  assert.ok(block.includes('owner [EMAIL]') && !block.includes('10.1.2.3'));
  const lines: string[] = [];
  for await (const line of engram.exportLines({ secrecy: 'S2', withHistory: true })) lines.push(line);
  assert.ok(!lines.join('').includes('backup01') && !lines.join('').includes('10.1.2.3'));
  assert.equal((await engram.get({ id: item.id })).content, content, 'S3 and the store keep everything');
  assert.equal((await engram.search({ query: 'backups' })).items[0]?.content, content);
});

test('CLI: policy check, policy rules, review, verify, reject, --secrecy and ENGRAM_SECRECY', (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'memory.db');
  const ok = cli(['policy', 'check'], { input: 'Deploys run from the release branch' });
  assert.equal(ok.code, 0);
  assert.deepEqual(ok.json, { ok: true, verdict: 'accept', matches: [] });
  const held = cli(['policy', 'check', '-'], { input: caseOf('self-instruction', /^self-instruction 5$/).text });
  assert.equal(held.json?.verdict, 'quarantine');
  const bad = cli(['policy', 'check'], { input: caseOf('instruction', /^tool-call 1$/).text });
  assert.equal(bad.code, 1);
  assert.equal(bad.stdout, '');
  assert.equal(bad.error?.error, 'POLICY_REJECTED');
  const long = 'word '.repeat(1000);
  assert.equal(cli(['policy', 'check'], { input: long }).code, 1);
  assert.equal(cli(['policy', 'check', '--whole-file'], { input: long }).code, 0);
  assert.equal(cli(['policy', 'check', '--type', 'pointer'], { input: long }).code, 0);
  assert.equal(cli(['policy', 'check', 'missing-file.txt']).error?.error, 'PARAM_ERROR');

  const rules = cli(['policy', 'rules']).json?.rules as { id: string; group: string; action: string }[];
  assert.equal(rules.length, POLICY_RULES.length);
  assert.ok(rules.some((r) => r.id === 'size.content') && rules.some((r) => r.id === 'provenance.missing'));
  assert.deepEqual(
    [...new Set(rules.map((r) => r.group))].sort(),
    ['injection', 'instruction', 'pii', 'provenance', 'secret', 'self-instruction', 'size'],
  );

  const put = cli(['put', '--db', db, '--content', caseOf('pii', /^pii 4$/).text]);
  assert.equal(put.code, 0);
  assert.match(put.stderr, /quarantined by policy \(pii\.phone\)/);
  const id = (put.json?.item as { id: string }).id;
  const review = cli(['review', '--db', db]).json;
  assert.deepEqual((review?.quarantined as { id: string }[]).map((i) => i.id), [id]);
  assert.match(cli(['search', '--db', db, 'vendor', '--include-quarantined', '--format', 'text']).stdout, /\[QUARANTINED\]/);
  assert.equal((cli(['search', '--db', db, 'vendor']).json?.items as unknown[]).length, 0);
  assert.equal(cli(['verify', '--db', db, id]).json?.action, 'verified');
  assert.equal(cli(['reject', '--db', db, id, '--reason', 'stale']).json?.action, 'rejected');
  assert.equal(cli(['verify', '--db', db, id]).error?.error, 'PARAM_ERROR');
  assert.equal(cli(['reject', '--db', db, 'MEM-000000000000']).code, 3);

  cli(['put', '--db', db, '--content', 'Logs ship to 10.9.8.7 nightly']);
  assert.match(cli(['recall', '--db', db, 'logs ship', '--secrecy', 'S2']).stdout, /Logs ship to \[IP\] nightly/);
  assert.match(cli(['recall', '--db', db, 'logs ship'], { env: { ENGRAM_SECRECY: 'S0' } }).stdout, /\[IP\]/);
  assert.match(cli(['recall', '--db', db, 'logs ship']).stdout, /10\.9\.8\.7/);
  assert.equal(cli(['recall', '--db', db, 'x'], { env: { ENGRAM_SECRECY: 'S9' } }).error?.error, 'PARAM_ERROR');
  assert.equal(cli(['export', '--db', db, '--secrecy', 'S1']).code, 2);
});
