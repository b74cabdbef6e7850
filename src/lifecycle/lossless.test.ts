import assert from 'node:assert/strict';
import { test } from 'node:test';
import { differences, distinguishingTokens, saidText, says, sentencesOf, shapeOf } from './lossless.js';

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

test('says: every sentence and every distinguishing token of the other', () => {
  const full = said('Service api listens on port 7000. It is owned by team Alpha.');
  assert.equal(says(full, said('service api listens on port 7000')), true);
  assert.equal(says(full, said('It is owned by team Alpha.\n- Service api listens on port 7000.')), true);
  assert.equal(says(full, said('Service api listens on port 7001.')), false, 'another number');
  assert.equal(says(full, said('Service api listens on port 7000. Ask Bob.')), false, 'one more sentence');
  assert.equal(says(said('The staging database runs on port 6100'), said('The production database runs on port 6101')), false);
  assert.equal(says(full, said('Service api listens on port 7000.', 'Ports')), false, 'a title the other does not say');
  assert.equal(says(said('Ports. Service api listens on port 7000.'), said('Service api listens on port 7000.', 'Ports')), true);
});

test('differences and shapes: values that differ, in order, and text with its values set aside', () => {
  assert.deepEqual(differences('The database listens on port 5432.', 'The database listens on port 5433.'), ['5432 → 5433']);
  assert.deepEqual(differences('We use Redis for the session cache', 'We use Memcached for the session cache'), ['Redis → Memcached']);
  assert.deepEqual(differences('Postgres 12 on port 6100', 'Postgres 13 on port 6101'), ['12 → 13', '6100 → 6101']);
  assert.deepEqual(differences('Deploys run on Fridays', 'Deploys run on Fridays at 10:00'), ['∅ → 10:00']);
  assert.deepEqual(differences('the staging database', 'the production database'), [], 'ordinary words are not listed');
  assert.equal(shapeOf('The staging database runs Postgres 12 on port 6100'), 'the staging database runs postgres # on port #');
  assert.equal(shapeOf('Port 5432.'), shapeOf('port 5433'));
});
