import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { escapeLike, likeScore } from './list-query.js';

/** The substring score as it was first written: one correlated `EXISTS` per item for its tags. */
function oracle(terms: readonly string[]): { sql: string; params: string[] } {
  const part = '(CASE WHEN i.title LIKE ? ESCAPE \'\\\' OR i.content LIKE ? ESCAPE \'\\\' OR EXISTS '
    + '(SELECT 1 FROM memory_tags t WHERE t.item_id = i.id AND t.tag LIKE ? ESCAPE \'\\\') THEN 1 ELSE 0 END)';
  const params = terms.flatMap((t) => Array.from({ length: 3 }, () => `%${escapeLike(t)}%`));
  return { sql: terms.map(() => part).join(' + '), params };
}

test('the substring score reads each term\'s tags once and scores every item as the correlated form did', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE memory_items (id TEXT PRIMARY KEY, title TEXT NOT NULL, content TEXT NOT NULL);
    CREATE TABLE memory_tags (item_id TEXT NOT NULL, tag TEXT NOT NULL, position INTEGER NOT NULL);
    CREATE INDEX idx_tags_item ON memory_tags(item_id)`);
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  // A small alphabet, so that terms often occur, with LIKE's own characters and its escape.
  const alphabet = 'abcAB %_\\x';
  const text = (max: number) => Array.from({ length: Math.floor(next() * max) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  const insertItem = db.prepare('INSERT INTO memory_items (id, title, content) VALUES (?, ?, ?)');
  const insertTag = db.prepare('INSERT INTO memory_tags (item_id, tag, position) VALUES (?, ?, ?)');
  for (let i = 0; i < 300; i++) {
    insertItem.run(`MEM-${i}`, text(6), text(30));
    for (let j = 0; j < Math.floor(next() * 4); j++) insertTag.run(`MEM-${i}`, text(8), j);
  }
  const scores = (score: { sql: string; params: string[] }) =>
    db.prepare(`SELECT i.id, ${score.sql} AS score FROM memory_items i ORDER BY i.id`).all(...score.params);
  let positive = 0;
  for (let q = 0; q < 200; q++) {
    const terms = Array.from({ length: 1 + Math.floor(next() * 3) }, () => text(4) || 'a');
    const expected = scores(oracle(terms)) as { score: number }[];
    assert.deepEqual(scores(likeScore(terms)), expected, JSON.stringify(terms));
    positive += expected.filter((row) => row.score > 0).length;
  }
  // Not a comparison of zeros: terms matched items, through titles, contents and tags.
  assert.ok(positive > 5_000, `${positive} scored items`);
  // A term only a tag holds, once as written and once with LIKE's characters taken literally.
  insertItem.run('MEM-tag', '', '');
  insertTag.run('MEM-tag', 'zz%q_q', 0);
  const of = (terms: string[]) => (scores(likeScore(terms)) as { id: string; score: number }[]).find((r) => r.id === 'MEM-tag')?.score;
  assert.equal(of(['z%q', 'q_q', 'zz']), 3);
  assert.equal(of(['zzq', 'z_q']), 0);
});
