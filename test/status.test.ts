/**
 * `engram status`: every part of the one screen from a store built for it — counts per tier and
 * type, quarantined, contradicted and possibly contradicting items, pending vectors, the last
 * consolidation, a synced folder's lag, and the agent clients that have engram wired in — through
 * the library and the CLI (JSON and text).
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { wiredClients } from '../src/config/wired-clients.js';
import type { Embedder } from '../src/embed/embedder.js';
import { type Engram, openEngram, type StatusReport } from '../src/engram.js';
import { cli, hostile, tempDir } from './helpers.js';

/** A deterministic 4-dimension embedder: enough to store vectors. */
const FAKE_EMBEDDER: Embedder = {
  id: 'fake-4',
  dimensions: 4,
  embed: (texts) =>
    Promise.resolve(texts.map((text) => {
      const v = Float32Array.from([text.length % 7, 1, text.charCodeAt(0) % 5, 2]);
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    })),
};

/** A project with two wired clients, one not wired, and a home with Codex and Claude Code files. */
function clientFixtures(project: string, home: string): void {
  mkdirSync(join(project, '.vscode'), { recursive: true });
  mkdirSync(join(project, '.cursor'), { recursive: true });
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { engram: { command: 'engram', args: ['serve'] } } }));
  // VS Code's file allows comments and trailing commas; this one names another server only.
  writeFileSync(
    join(project, '.vscode', 'mcp.json'),
    '{\n  // the team\'s servers\n  "servers": {\n    "github": { "url": "https://example.invalid/mcp", },\n  },\n}\n',
  );
  writeFileSync(join(project, '.cursor', 'mcp.json'), '{ "mcpServers": { /* ours */ "engram": { "command": "engram" } } }');
  writeFileSync(join(project, 'opencode.json'), '{ "mcp": ');
  writeFileSync(join(home, '.codex', 'config.toml'), 'model = "o4"\n\n[mcp_servers.engram]\ncommand = "engram"\nargs = ["serve"]\n');
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ projects: { [project]: { mcpServers: { engram: { command: 'engram' } } } } }));
}

async function fill(engram: Engram): Promise<void> {
  await engram.put({ content: 'We chose JWT for stateless auth', type: 'decision' });
  await engram.put({ content: 'The staging database listens on port 5432', type: 'fact' });
  await engram.put({ content: 'The staging database listens on port 5433', type: 'fact' });
  await engram.put({ content: 'Old claim about the queue', validation: 'contradicted' });
  await engram.put({ content: `${hostile('pii', /^pii 1$/)} (release notes)` });
  await engram.put({ content: 'Long-term rule: never deploy on Fridays', tier: 'ltm', type: 'constraint' });
}

test('status reports counts, review, vectors, consolidation, folder lag and wired clients', async (t) => {
  const dir = tempDir(t);
  const project = join(dir, 'project');
  const home = join(dir, 'home');
  mkdirSync(join(project, 'docs'), { recursive: true });
  clientFixtures(project, home);
  writeFileSync(join(project, 'docs', 'a.md'), 'Alpha notes.\n');
  writeFileSync(join(project, 'docs', 'b.md'), 'Beta notes.\n');
  const path = join(dir, 'memory.db');
  const clock = { at: Date.parse('2026-11-22T10:00:00.000Z') };
  const engram = await openEngram({ path, clock: () => new Date(clock.at) });
  t.after(() => engram.close());
  await fill(engram);
  await engram.addFolder({ path: join(project, 'docs') });

  const before = await engram.status();
  assert.equal(before.clients, undefined, 'no clients looked at unless asked');
  assert.equal(before.last_consolidation, null);
  assert.equal(before.folders[0]?.synced_at, null);
  assert.deepEqual(before.folders[0]?.changes, { files: 2, added: 2, changed: 0, removed: 0, present: true });

  await engram.sync();
  clock.at += 60_000;
  await engram.consolidate();
  // After the sync: one file changed, one added, one removed (times set after the sync began).
  const later = new Date(clock.at + 3_600_000);
  writeFileSync(join(project, 'docs', 'a.md'), 'Alpha notes, revised.\n');
  writeFileSync(join(project, 'docs', 'c.md'), 'Gamma notes.\n');
  for (const name of ['a.md', 'c.md']) utimesSync(join(project, 'docs', name), later, later);
  rmSync(join(project, 'docs', 'b.md'));

  const status: StatusReport = await engram.status({ clients: { project, home } });
  assert.equal(status.store.path, path);
  assert.ok(status.store.size_bytes > 0);
  assert.equal(status.items.active, 8, 'six memories and two chunks');
  assert.deepEqual(status.items.by_tier, { ltm: 1, stm: 7 });
  assert.deepEqual(status.items.by_type, { constraint: 1, decision: 1, fact: 2, note: 4 });
  assert.deepEqual(status.review, {
    quarantined: 1, contradicted: 1, possible_contradictions: 1, possible_contradictions_capped: false,
  });
  assert.equal(status.last_consolidation, '2026-11-22T10:01:00.000Z');
  assert.equal(status.folders[0]?.synced_at, '2026-11-22T10:00:00.000Z');
  assert.deepEqual(status.folders[0]?.changes, { files: 2, added: 1, changed: 1, removed: 1, present: true });
  assert.deepEqual(
    status.clients?.map((c) => [c.client, c.scope, c.wired, c.problem ?? '']),
    [
      ['claude-code', 'project', true, ''],
      ['claude-code', 'user', true, ''],
      ['cursor', 'project', true, ''],
      ['vscode', 'project', false, ''],
      ['opencode', 'project', false, 'not a JSON object'],
      ['codex', 'user', true, ''],
    ],
  );
  assert.equal(status.vectors?.embedder ?? null, null);

  // With an embedder: the items stored before it are pending until `embed`.
  const embedded = await openEngram({ path, embedder: FAKE_EMBEDDER });
  t.after(() => embedded.close());
  const pending = (await embedded.status()).vectors;
  assert.deepEqual([pending?.embedder, pending?.pending, pending?.vectors], ['fake-4', 8, 0]);
  await embedded.embed();
  assert.equal((await embedded.status()).vectors?.pending, 0);
});

test('wired clients: missing files are not listed; a server under another name is not engram', (t) => {
  const dir = tempDir(t);
  assert.deepEqual(wiredClients({ project: dir, home: dir }), []);
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { 'engram-old': {}, 'memory': { command: 'engram' } } }));
  mkdirSync(join(dir, '.codex'));
  writeFileSync(join(dir, '.codex', 'config.toml'), '# [mcp_servers.engram] is not set up yet\n[mcp_servers.other]\n');
  assert.deepEqual(wiredClients({ project: dir, home: dir }).map((c) => [c.client, c.wired]), [
    ['claude-code', false],
    ['codex', false],
  ]);
});

test('engram status through the CLI: JSON for agents, one screen of text for people', async (t) => {
  const dir = tempDir(t);
  const env = { HOME: dir };
  assert.equal(cli(['init'], { cwd: dir, env }).code, 0);
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { engram: { command: 'engram', args: ['serve'] } } }));
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'notes', 'x.md'), 'Something worth keeping.\n');
  assert.equal(cli(['put', '--content', 'We deploy with blue-green releases', '--type', 'decision'], { cwd: dir, env }).code, 0);
  assert.equal(cli(['sync', 'add', 'notes'], { cwd: dir, env }).code, 0);
  assert.equal(cli(['sync'], { cwd: dir, env }).code, 0);

  // From a subdirectory: the store is discovered, and the project is where `.engram/` is.
  mkdirSync(join(dir, 'src'));
  const json = cli(['status'], { cwd: join(dir, 'src'), env });
  assert.equal(json.code, 0, json.stderr);
  const report = json.json as unknown as StatusReport & { ok: boolean };
  assert.equal(report.ok, true);
  assert.equal(report.store.path, join(dir, '.engram', 'memory.db'));
  assert.deepEqual(report.items.by_type, { decision: 1, note: 1 });
  assert.deepEqual(report.folders.map((f) => [f.name, f.changes.added + f.changes.changed + f.changes.removed]), [['notes', 0]]);
  assert.deepEqual(report.clients?.map((c) => [c.client, c.scope, c.wired]), [['claude-code', 'project', true]]);

  const text = cli(['status', '--format', 'text'], { cwd: dir, env });
  assert.equal(text.code, 0);
  const lines = text.stdout.trimEnd().split('\n');
  assert.ok(lines.length <= 24, 'one screen');
  assert.match(text.stdout, /^store {9}\S+memory\.db \(\d+\.\d KB, schema \d+\)$/m);
  assert.match(text.stdout, /^items {9}2 active, 0 archived$/m);
  assert.match(text.stdout, /^review {8}0 quarantined · 0 contradicted · 0 possible contradictions$/m);
  assert.match(text.stdout, /^consolidated {2}never$/m);
  assert.match(text.stdout, /^folders {7}notes \S+notes {2}synced just now · 0 added, 0 changed, 0 removed since$/m);
  assert.match(text.stdout, /^clients {7}claude-code \(project\)$/m);

  const missing = cli(['status', '--db', join(dir, 'nowhere.db')], { cwd: dir, env });
  assert.equal(missing.code, 3);
});
