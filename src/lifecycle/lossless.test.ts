import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalText } from '../util/canonical-text.js';
import { differences, distinguishingTokens, opening, saidText, says, sentencesOf, shapeOf } from './lossless.js';

const said = (content: string, title = '') => saidText({ title, content });

test('sentences are normalised: case, spacing, NFKC, list markers and closing punctuation', () => {
  assert.deepEqual(sentencesOf('- Port 5432.\n1. Deploy  on Fridays! Then rest.\nＡＢＣ'), ['port 5432', 'deploy on fridays', 'then rest', 'abc']);
  assert.deepEqual(sentencesOf('版本是 2.1。部署在周五！'), ['版本是 2.1', '部署在周五']);
  assert.deepEqual(sentencesOf('Version 3.5 ships. v1.2.3 too'), ['version 3.5 ships', 'v1.2.3 too']);
});

test('distinguishing tokens: numbers, versions, dates, identifiers, paths, URLs and names', () => {
  const tokens = distinguishingTokens(
    'See /etc/app.conf and https://x.io/a?b=1 on 2024-03-01, v1.2.3, deployCount, max_retries and NATS. Anna said so.',
  );
  for (const t of ['/etc/app.conf', 'https://x.io/a?b=1', '2024-03-01', 'v1.2.3', 'deploycount', 'max_retries', 'nats']) {
    assert.ok(tokens.has(t), t);
  }
  assert.ok(!tokens.has('anna'), 'a capital that starts a sentence is not a name');
  assert.ok(!tokens.has('see') && !tokens.has('said'));
  assert.ok(distinguishingTokens('We met Anna').has('anna'), 'a capital inside a sentence is');
});

test('says: the other text as written is where this one begins, ending with a line or a sentence', () => {
  const full = said('Service api listens on port 7000. It is owned by team Alpha.');
  assert.equal(says(full, said('Service api listens on port 7000.')), true);
  assert.equal(says(full, said('Service api listens on port 7000.  \r\n')), true, 'line endings and trailing spaces aside');
  assert.equal(says(full, said('Service api  listens on port 7000.')), false, 'spaces inside a line count');
  assert.equal(says(full, said('It is owned by team Alpha.')), false, 'what follows may hang on what came before');
  assert.equal(says(full, said('Service api listens on port 7001.')), false, 'another number');
  assert.equal(says(full, said('Service api listens on port 700')), false, 'part of a word is not a word');
  assert.equal(says(full, said('Service api listens')), false, 'part of a sentence is not a sentence');
  assert.equal(says(full, said('Service api listens on port 7000. Ask Bob.')), false, 'one more sentence');
  assert.equal(says(said('Ask first:\n- port: 5432\nThen deploy.'), said('Ask first:')), true, 'a line is a sentence');
  assert.equal(says(full, said('Service api listens on port 7000.', 'Ports')), false, 'a title the other does not have');
  assert.equal(says(said('Service api listens on port 7000.', 'Ports'), said('Service api listens on port 7000.', 'Ports')), true);
  assert.equal(says(said('See e.g. Deploy on Fridays.'), said('See e.g.')), false, 'an abbreviation ends no sentence');
});

test('says: what an attacker (and a careless user) tried never folds', () => {
  const never: [string, string][] = [
    ['## Staging\n- port: 5432\n## Production\n- port: 5433', '## Staging\n- port: 5433\n## Production\n- port: 5432'],
    ['if debug:\n    retries = 0\nretries = 3', 'if debug:\nretries = 0\n    retries = 3'],
    ['1. Take a backup\n2. Run the migration', '1. Run the migration\n2. Take a backup'],
    ['The retry limit is\n5. Then we page on-call.', 'The retry limit is\n3. Then we page on-call.'],
    ['Clock skew adjustment:\n+ 2 hours', 'Clock skew adjustment:\n- 2 hours'],
    ['> 90% CPU for 5 minutes pages the on-call engineer.', '90% CPU for 5 minutes pages the on-call engineer.'],
    ['2³ equals 8.', '23 equals 8'],
    ['The ＡＰＩ gateway uses ＳＳＯ login.', 'The API gateway uses SSO login.'],
    ['The bucket is Prod-Assets.', 'The bucket is prod-assets.'],
    ['Drop the legacy users table?', 'Drop the legacy users table.'],
    ['Always call user.save!', 'Always call user.save'],
    ['Bind the listener to 2001:db8::', 'Bind the listener to 2001:db8'],
    ['start()\n    notify()', 'start()\nnotify()'],
    ['The feature is enabled.', 'The feature is not enabled.'],
    ['Run migrations on Friday.', 'Do not run migrations on Friday.'],
    ['run migrations on Friday', 'Do not run migrations on Friday'],
    ['## Deprecated\nUse Redis for the session cache.\n## Current\nUse Memcached.', 'Use Redis for the session cache.'],
    ['NOT:\nUse port 5432 for Postgres.', 'Use port 5432 for Postgres.'],
    ['Never run this:\n```\nrm -rf /var/lib/app/cache\n```', 'rm -rf /var/lib/app/cache'],
    ['<!--\nThe admin password rotates every 7 days.\n-->', 'The admin password rotates every 7 days.'],
    ['Avoid risky steps, e.g. Deploy on Fridays.', 'Deploy on Fridays.'],
    ['Staging is safe to wipe; Production is not.', 'Production is not.'],
    ['awk -F\'  \' \'{print $2}\'', 'awk -F\' \' \'{print $2}\''],
  ];
  for (const [a, b] of never) {
    assert.equal(says(said(a), said(b)) || says(said(b), said(a)), false, `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
  }
});

test('differences and shapes: values that differ, in order, and text with its values set aside', () => {
  assert.deepEqual(differences('The database listens on port 5432.', 'The database listens on port 5433.'), ['5432 → 5433']);
  assert.deepEqual(differences('We use Redis for the session cache', 'We use Memcached for the session cache'), ['Redis → Memcached']);
  assert.deepEqual(differences('Postgres 12 on port 6100', 'Postgres 13 on port 6101'), ['12 → 13', '6100 → 6101']);
  assert.deepEqual(differences('Deploys run on Fridays', 'Deploys run on Fridays at 10:00'), ['∅ → 10:00']);
  assert.deepEqual(differences('the staging database', 'the production database'), [], 'ordinary words are not listed');
  assert.equal(shapeOf('The staging database runs Postgres 12 on port 6100'), 'the staging database runs postgres # on port #');
  assert.equal(shapeOf('Port 5432.'), shapeOf('port 5433'));
  assert.equal(shapeOf('Redis端口是6379'), shapeOf('Redis端口是6380'));
  assert.notEqual(shapeOf('Redis端口是6379'), shapeOf('会议在3楼'));
  assert.deepEqual(differences('The retry limit is\n5. Then we page.', 'The retry limit is\n3. Then we page.'), ['5 → 3']);
});

test('opening: a text that another says has the same opening (consolidation compares only those)', () => {
  assert.equal(opening('Deploys run on Thursdays. Ask Anna first.'), 'Deploys run on Thursdays.');
  assert.equal(opening('See e.g. the runbook. Then deploy.'), 'See e.g. the runbook.', 'an abbreviation is no cut');
  assert.equal(opening('## Deprecated\nUse v2.'), '## Deprecated');
  assert.equal(opening('one line only'), 'one line only');
  // Every pair of generated texts where one says the other: same opening.
  const pieces = ['Port 5432.', 'e.g.', 'Dr.', 'Ask Anna first!', 'v1.', 'done?', '## Heading', 'list:', 'x', '端口是6379。', 'ok.'];
  const separators = [' ', '\n', '  ', '\t', '\n\n'];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let pairs = 0;
  for (let round = 0; round < 3000; round++) {
    let text = pieces[next(pieces.length)] as string;
    for (let k = next(5); k > 0; k--) text += `${separators[next(separators.length)]}${pieces[next(pieces.length)]}`;
    const whole = canonicalText(text);
    for (let cut = 1; cut <= whole.length; cut++) {
      const part = whole.slice(0, cut);
      if (!says(said(whole), said(part))) continue;
      pairs++;
      assert.equal(opening(canonicalText(part)), opening(whole), `${JSON.stringify(part)} in ${JSON.stringify(whole)}`);
    }
  }
  assert.ok(pairs > 1000, `${pairs} pairs`);
});
