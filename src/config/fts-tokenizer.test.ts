import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ftsTokenizerFromEnv, localeFtsTokenizer } from './fts-tokenizer.js';

test('a French locale gives fr, anything else en; LC_ALL, then LC_MESSAGES, then LANG decide', () => {
  assert.equal(localeFtsTokenizer({}), 'en');
  assert.equal(localeFtsTokenizer({ LANG: 'C.UTF-8' }), 'en');
  assert.equal(localeFtsTokenizer({ LANG: 'en_GB.UTF-8' }), 'en');
  for (const lang of ['fr', 'fr_FR', 'fr_FR.UTF-8', 'fr_CA.utf8', 'fr_BE@euro', 'FR_fr']) {
    assert.equal(localeFtsTokenizer({ LANG: lang }), 'fr', lang);
  }
  assert.equal(localeFtsTokenizer({ LANG: 'fry_NL.UTF-8' }), 'en', 'Frisian is not French');
  assert.equal(localeFtsTokenizer({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'fr_FR.UTF-8' }), 'fr');
  assert.equal(localeFtsTokenizer({ LANG: 'fr_FR.UTF-8', LC_ALL: 'en_US.UTF-8' }), 'en');
  assert.equal(localeFtsTokenizer({ LANG: 'fr_FR.UTF-8', LC_ALL: '' }), 'fr', 'an empty variable is unset');
});

test('ENGRAM_FTS_TOKENIZER is a preset or a PARAM_ERROR', () => {
  assert.equal(ftsTokenizerFromEnv(undefined), undefined);
  assert.equal(ftsTokenizerFromEnv(''), undefined);
  assert.equal(ftsTokenizerFromEnv('raw'), 'raw');
  assert.throws(() => ftsTokenizerFromEnv('porter'), { code: 'PARAM_ERROR' });
});
