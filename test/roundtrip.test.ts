/** Export → import into an empty store → export is byte-identical. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngram } from '../src/index.js';
import { cli, tempDir } from './helpers.js';

const SAMPLES = [
  'plain ASCII note',
  '密码至少8位，失败重试限制：15 分钟内最多 5 次',
  'emoji 🚀🔥 and flags 🇫🇷 and ZWJ 👩‍💻',
  'Ünïcödé àçcents — “quotes” ‘single’ … ellipsis',
  'line\nbreaks\r\nand\ttabs and \u2028 separators',
  '{"json": ["as", "content"], "n": 1.5}',
  '# Markdown\n\n```ts\nconst x = 1;\n```\n',
  'quotes " and backslashes \\ and nulls are fine',
];

test('round trip of 1,000 varied items (Unicode, Chinese, emoji, 100 KB content, empty tags) is byte-identical', async (t) => {
  const dir = tempDir(t);
  const source = join(dir, 'source.db');
  let tick = Date.parse('2026-01-01T00:00:00.000Z');
  const engram = await openEngram({
    path: source,
    session: 'seeder',
    clock: () => {
      tick += 1500;
      return new Date(tick);
    },
  });
  const ids: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const sample = SAMPLES[i % SAMPLES.length] ?? '';
    const { item } = await engram.put({
      content: i % 250 === 0 ? `${sample} ${'x'.repeat(100 * 1024)}` : `${sample} #${i}`,
      title: i % 3 === 0 ? `标题 ${i} 🚀` : undefined,
      tags: i % 4 === 0 ? [] : [`tag${i % 5}`, 'Shared', '中文'],
      entities: i % 6 === 0 ? ['Oracle', 'postgres'] : undefined,
      // Content over the policy's 2,000 characters is only allowed for pointers.
      type: i % 250 === 0 ? 'pointer' : (['fact', 'decision', 'note', 'pointer'] as const)[i % 4],
      tier: (['stm', 'mtm', 'ltm'] as const)[i % 3],
      layer: i % 2 === 0 ? 'feature' : undefined,
      key: i % 2 === 0 ? `key.${i}` : undefined,
      task_id: i % 2 === 0 ? `T${i % 10}` : undefined,
      provenance:
        i % 7 === 0 ? { source_kind: 'doc', path: `docs/${i}.md`, lines: [i, i + 3] } : undefined,
      confidence: (i % 10) / 10,
      weight: i % 9 === 0 ? 0.125 : undefined,
      injectable: i % 11 !== 0,
      expires_at: i % 13 === 0 ? '2027-06-01T00:00:00.000Z' : undefined,
    });
    ids.push(item.id);
  }
  for (const id of ids.slice(0, 100)) await engram.put({ id, content: `revised ${id}` });
  for (const id of ids.slice(100, 120)) await engram.delete(id);
  engram.close();

  for (const flags of [[], ['--with-history']]) {
    const first = cli(['export', '--db', source, ...flags]);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trimEnd().split('\n').length, 1000);
    const file = join(dir, `export${flags.length}.jsonl`);
    writeFileSync(file, first.stdout);
    const target = join(dir, `target${flags.length}.db`);
    const imported = cli(['import', '--db', target, file]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual([imported.json?.created, imported.json?.invalid], [1000, 0]);
    const second = cli(['export', '--db', target, ...flags]);
    assert.equal(second.stdout, readFileSync(file, 'utf8'));
    const again = cli(['import', '--db', target, file]);
    assert.equal(again.json?.unchanged, 1000, 're-importing the same file changes nothing');
  }
});
