/** Full-text search through the library and the CLI, on real SQLite files, FTS5 and LIKE. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Engram, openEngram } from '../src/index.js';
import { cli, tempDir } from './helpers.js';

type Options = { fullText?: boolean; ftsTokenizer?: string };

async function store(t: { after: (fn: () => void) => void }, options: Options = {}) {
  const engram = await openEngram({ path: join(tempDir(t), 'memory.db'), ...options });
  t.after(() => engram.close());
  return engram;
}

async function seed(engram: Engram) {
  const ids: Record<string, string> = {};
  const put = async (name: string, input: Parameters<Engram['put']>[0]) => {
    ids[name] = (await engram.put(input)).item.id;
  };
  await put('policy', { title: 'Password policy', content: 'Passwords need 12 characters and a symbol.', tags: ['auth'] });
  await put('mention', { content: 'The login form links to the password reset page.', tags: ['ui'] });
  await put('deploy', { content: 'Deploys go through the staging cluster first.', tags: ['ops'], tier: 'ltm' });
  await put('zh', { content: '## 业务规则\n- 密码至少8位\n- 失败重试限制：15 分钟内最多 5 次', tags: ['auth'] });
  await put('zhTw', { content: '中華民國的密碼規則很嚴格' });
  await put('mixed', { content: '登录 API 使用 JWT token 认证' });
  await put('fr', { content: 'L\'éléphant du déploiement est à Genève' });
  await put('auth', { content: 'Authentication uses signed JWTs with a 15 minute expiry.' });
  return ids;
}

const ids = (result: { items: { id: string }[] }) => result.items.map((i) => i.id);

for (const fullText of [true, false]) {
  const mode = fullText ? 'FTS5' : 'LIKE';

  test(`${mode}: questions match items holding only some of their words`, async (t) => {
    const engram = await store(t, { fullText });
    const id = await seed(engram);
    const result = await engram.search({ query: 'What is our password policy?' });
    assert.equal(result.fts, fullText);
    assert.ok(ids(result).includes(id.policy as string));
    assert.ok(ids(result).includes(id.mention as string));
    assert.ok(!ids(result).includes(id.deploy as string));
    if (fullText) {
      assert.equal(result.stage, 'any');
      assert.equal(ids(result)[0], id.policy, 'title and more matching words rank first');
    }
  });

  test(`${mode}: Chinese two-character words, mixed and traditional text are found`, async (t) => {
    const engram = await store(t, { fullText });
    const id = await seed(engram);
    assert.deepEqual(ids(await engram.search({ query: '密码' })), [id.zh]);
    assert.deepEqual(ids(await engram.search({ query: '登录' })), [id.mixed]);
    assert.ok(ids(await engram.search({ query: 'JWT' })).includes(id.mixed as string));
    assert.deepEqual(ids(await engram.search({ query: '密碼' })), [id.zhTw]);
  });

  test(`${mode}: Korean and kana words, which jieba cuts into single characters, are found`, async (t) => {
    const engram = await store(t, { fullText });
    const ko = (await engram.put({ content: '한국어 데이터베이스 연결 설정' })).item.id;
    const ja = (await engram.put({ content: 'カタカナ の テスト、データベースの設定' })).item.id;
    await engram.put({ content: 'Unrelated English note' });
    for (const [query, id] of [['한국어', ko], ['데이터베이스', ko], ['カタカナ', ja], ['データベース', ja]] as const) {
      const found = await engram.search({ query });
      assert.deepEqual(ids(found), [id], query);
      assert.deepEqual(found.terms, [query], `${query} stays one term`);
    }
    if (fullText) assert.equal((await engram.search({ query: '한국어' })).stage, 'any', 'an indexed word, not a substring');
    // A question in another sentence: its katakana word is a term of its own (a change of script ends it).
    const deploy = (await engram.put({ content: 'デプロイは金曜日に行います' })).item.id;
    const asked = await engram.search({ query: 'デプロイはいつですか' });
    assert.ok(asked.terms.includes('デプロイ'), asked.terms.join('|'));
    assert.deepEqual(ids(asked), [deploy]);
  });

  test(`${mode}: joined single characters are terms only for a query with no other term (no filler outranks real words)`, async (t) => {
    const engram = await store(t, { fullText });
    const grafana = (await engram.put({ title: '모니터링', content: '모니터링은 Grafana와 Prometheus를 사용합니다.' })).item.id;
    await engram.put({ title: '커피', content: '커피 머신은 4층 탕비실에 있어요.' });
    const dashboard = (await engram.put({ content: 'Grafanaのダッシュボードは社内ポータルから開けます。' })).item.id;
    await engram.put({ content: 'お疲れさまです よろしくお願いします' });
    const ssl = (await engram.put({ content: 'SSL 证书每年三月到期，需要提前两周续期。' })).item.id;
    // Korean filler (있어요) would match the coffee note at the first stage and hide the Grafana one.
    const ko = await engram.search({ query: 'Grafana 대시보드 어디 있어요' });
    assert.deepEqual(ko.terms, ['grafana']);
    const found = ids(ko);
    assert.ok(found.includes(grafana), JSON.stringify(found));
    assert.ok(found.every((id) => id === grafana || id === dashboard), JSON.stringify(found));
    // Hiragana filler (ですか, します) would rank the greeting memo first.
    const ja = await engram.search({ query: 'Grafanaの設定はどこですか よろしくお願いします' });
    assert.ok(!ja.terms.some((term) => /ですか|します/.test(term)), ja.terms.join('|'));
    assert.equal(ids(ja)[0] === dashboard || ids(ja)[0] === grafana, true, JSON.stringify(ids(ja)));
    // A long Chinese prompt: joined filler would push ssl and 证书 past the 32-term limit.
    const prompt = '你好，我今天早上来公司以后试了一下新的构建流程，发现有些地方跑得很慢，我想了想可能是缓存没配好，也可能是网络的问题。'
      + '后来同事说他那边也遇到过类似的情况，他给我看了他的笔记，但我还是没太看懂。我又去翻了翻以前的文档，找了半天也没找到。对了，SSL证书是什么时候到期的？';
    const zh = await engram.search({ query: prompt });
    assert.ok(zh.terms.includes('ssl') && zh.terms.includes('证书'), zh.terms.join('|'));
    assert.ok(ids(zh).includes(ssl));
  });

  test(`${mode}: filters apply to search as to list; archived items are hidden unless asked`, async (t) => {
    const engram = await store(t, { fullText });
    const id = await seed(engram);
    assert.deepEqual(ids(await engram.search({ query: 'password 密码', tags: ['auth'] })).sort(), [id.policy, id.zh].sort());
    assert.deepEqual(ids(await engram.search({ query: 'staging', tier: 'stm' })), []);
    await engram.delete(id.deploy as string);
    assert.deepEqual(ids(await engram.search({ query: 'staging' })), []);
    assert.deepEqual(ids(await engram.search({ query: 'staging', archived: 'include' })), [id.deploy]);
  });
}

test('an update or a hard delete is reflected in the very next search', async (t) => {
  const engram = await store(t);
  const id = await seed(engram);
  await engram.put({ id: id.deploy, content: 'Releases are canaried in one region.' });
  assert.deepEqual(ids(await engram.search({ query: 'staging' })), []);
  assert.deepEqual(ids(await engram.search({ query: 'canaried' })), [id.deploy]);
  await engram.put({ id: id.mention, content: 'unrelated now', tags: ['password'] });
  assert.ok(ids(await engram.search({ query: 'password' })).includes(id.mention as string), 'tags are indexed');
  await engram.delete(id.auth as string, { hard: true });
  assert.deepEqual(ids(await engram.search({ query: 'authentication' })), []);
});

test('word prefixes answer when whole words do not; accents fold under the fr preset', async (t) => {
  const engram = await store(t, { ftsTokenizer: 'fr' });
  const id = await seed(engram);
  const prefix = await engram.search({ query: 'authenticat' });
  assert.equal(prefix.stage, 'prefix');
  assert.deepEqual(ids(prefix), [id.auth]);
  assert.deepEqual(ids(await engram.search({ query: 'elephant geneve' })), [id.fr]);
  const none = await engram.search({ query: 'kubernetes' });
  assert.equal(none.stage, 'none');
  assert.equal(none.count, 0);
});

test('under the default en preset accents fold too, and a cut word is still found', async (t) => {
  const engram = await store(t);
  const id = await seed(engram);
  // Porter indexes "authent": the prefix "authenticat*" misses it, the substring stage finds it.
  assert.deepEqual(ids(await engram.search({ query: 'authenticat' })), [id.auth]);
  assert.deepEqual(ids(await engram.search({ query: 'elephant geneve' })), [id.fr]);
  assert.equal((await engram.search({ query: 'kubernetes' })).count, 0);
});

test('the en preset stems English words', async (t) => {
  const engram = await store(t, { ftsTokenizer: 'en' });
  const { item } = await engram.put({ content: 'We are deploying the services nightly' });
  const result = await engram.search({ query: 'deployed service' });
  assert.deepEqual(ids(result), [item.id]);
  assert.equal(result.stage, 'any');
});

test('hostile queries return results or nothing, never an error', async (t) => {
  const engram = await store(t);
  await seed(engram);
  const hostile = ['"', 'NOT', 'title:password', 'pass*', '(a OR', 'NEAR(a b)', '^x', '-', '', ' ', '🚀', '\u0000',
    '\'; DROP TABLE memory_items; --', '%_%', 'x'.repeat(10_000), '密码"OR"1', 'a AND OR NOT b'];
  for (const query of hostile) {
    const result = await engram.search({ query });
    assert.ok(Array.isArray(result.items), JSON.stringify(query));
  }
});

test('CLI: search renders JSON hits with scores; ENGRAM_FTS=off warns once and still finds', (t) => {
  const db = join(tempDir(t), 'm.db');
  cli(['put', '--db', db, '--content', 'Passwords need 12 characters', '--title', 'Password policy']);
  cli(['put', '--db', db, '--content', '密码至少8位']);
  const run = cli(['search', '--db', db, 'password policy']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.json?.stage, 'any');
  const hits = run.json?.items as { score: number; title: string }[];
  assert.equal(hits[0]?.title, 'Password policy');
  assert.ok((hits[0]?.score ?? 0) > 0);
  const like = cli(['search', '--db', db, '密码'], { env: { ENGRAM_FTS: 'off' } });
  assert.equal(like.json?.fts, false);
  assert.equal((like.json?.items as unknown[]).length, 1);
  assert.equal(like.stderr.match(/warning/g)?.length, 1);
  const empty = cli(['search', '--db', db, 'nothing-like-this']);
  assert.equal(empty.code, 0);
  assert.equal(empty.json?.count, 0);
  assert.match(cli(['search', '--db', db, 'password', '--format', 'text']).stdout, /score/);
});

test('--explain shows every factor; re-ranking lifts ltm decisions; --sort and --injectable apply', async (t) => {
  const engram = await store(t);
  const note = (await engram.put({ content: 'Queue retries use exponential backoff', confidence: 0.3 })).item;
  const decision = (
    await engram.put({ content: 'Queue retries use exponential backoff.', type: 'decision', tier: 'ltm', confidence: 0.9 })
  ).item;
  await engram.put({ content: 'Queue retries are capped at five', injectable: false });
  const result = await engram.search({ query: 'queue retries backoff', explain: true });
  assert.deepEqual(ids(result).slice(0, 2), [decision.id, note.id]);
  const factors = result.items[0]?.explain;
  assert.ok(factors !== undefined);
  for (const key of ['bm25', 'relevance', 'tier_boost', 'type_boost', 'confidence', 'recency', 'weight', 'usage_boost', 'final']) {
    assert.ok(key in factors, key);
  }
  assert.equal(result.items[0]?.score, factors.final);
  assert.deepEqual([factors.title_match, factors.tag_match], [false, false]);
  assert.equal((await engram.search({ query: 'queue retries', injectable: true })).count, 2);
  const byConfidence = await engram.search({ query: 'queue', sort: 'confidence' });
  assert.equal(byConfidence.sort, 'confidence');
  assert.equal(ids(byConfidence)[0], decision.id);
  assert.equal((await engram.search({ query: 'queue' })).items[0]?.explain, undefined);
});

test('full-width and other compatibility forms are found by their plain form and by themselves', async (t) => {
  const engram = await openEngram({ path: ':memory:' });
  t.after(() => engram.close());
  const stored = await engram.put({ content: 'The ＡＰＩ gateway uses ＳＳＯ login on port １１２１１.' });
  for (const query of ['SSO', 'ＳＳＯ', 'api gateway', '11211']) {
    assert.deepEqual((await engram.search({ query })).items.map((i) => i.id), [stored.item.id], query);
  }
  assert.equal((await engram.get({ id: stored.item.id })).content, 'The ＡＰＩ gateway uses ＳＳＯ login on port １１２１１.', 'stored as written');
});

test('a conversation turn next to the words of a question is found (neighbouring context, same source)', async (t) => {
  const engram = await store(t);
  const turn = async (content: string, source: string | undefined = 'chat 2026-05-07', more = {}) =>
    (await engram.put({ content, ...(source === undefined ? {} : { source }), ...more })).item.id;
  await turn('Mel: Good to see you! How was the week?');
  const question = await turn('Caroline: Did you finish the painting for the lake house?');
  const answer = await turn('Mel: Yes, a sunrise over the water, in oils.');
  await turn('Caroline: Lovely. Shall we hike on Sunday?');
  const elsewhere = await turn('Unrelated note about oils for the bike chain.', undefined);
  await turn('Mel: The lake house painting is a gift.', 'another chat');
  const result = await engram.search({ query: 'What did Mel paint for the lake house?', explain: true });
  const found = ids(result);
  assert.ok(found.includes(answer), 'the reply joins the candidates');
  assert.ok(found.indexOf(question) < found.indexOf(answer), 'the turn with the words ranks first');
  assert.ok(!found.includes(elsewhere), 'an item without a source gets no context');
  const reply = result.items.find((i) => i.id === answer);
  assert.ok((reply?.explain?.context ?? 0) > 0, '--explain shows the shared part');
  assert.ok(Math.abs((reply?.explain?.bm25 ?? 0) - (reply?.explain?.context ?? 1)) < 1e-5, 'it holds no query word itself');
  const exact = await engram.search({ query: 'sunrise oils' });
  assert.equal(ids(exact)[0], answer, 'an exact match stays first');
  const key = await turn('Caroline: Where is the spare key of the shed?', 'chat 2026-06-01', { injectable: true });
  const hidden = await turn('Mel: Under the blue pot.', 'chat 2026-06-01', { injectable: false });
  assert.ok(ids(await engram.search({ query: 'spare key shed' })).includes(hidden), 'search shows the reply');
  const recalled = await engram.recall({ query: 'spare key shed' });
  assert.deepEqual(recalled.injected.map((e) => e.id), [key], 'recall keeps its filters: the reply is not injectable');
});

test('query words close together rank first when BM25 alone cannot tell (term proximity)', async (t) => {
  const engram = await store(t);
  const filler = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
  const together = (await engram.put({ content: `support group ${filler}` })).item.id;
  const apart = (await engram.put({ content: `support ${filler} group` })).item.id;
  const result = await engram.search({ query: 'support group', explain: true });
  assert.deepEqual(ids(result), [together, apart], 'same words and length; the newer would win a tie');
  assert.ok((result.items[0]?.explain?.proximity ?? 0) > 0, '--explain shows the proximity part');
  assert.equal(result.items[1]?.explain?.proximity, 0);
  const single = await engram.search({ query: 'support' });
  assert.deepEqual(new Set(ids(single)), new Set([together, apart]), 'one word: nothing added or dropped');
});
