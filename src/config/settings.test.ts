import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../errors.js';
import { anchorModelPath, createSettings } from './settings.js';

const cwd = '/work/project';

test('flags beat the environment, which beats the config file, which beats the locale', () => {
  const env = { ENGRAM_FTS_TOKENIZER: 'raw', LANG: 'fr_FR.UTF-8', ENGRAM_BUDGET: '800', ENGRAM_SESSION: 'env-session' };
  const settings = createSettings({ env, cwd }).withFlags({ session: 'flag-session' });
  assert.equal(settings.newStoreFtsTokenizer('en', { fts_tokenizer: 'fr' }), 'en');
  assert.equal(settings.newStoreFtsTokenizer(undefined, { fts_tokenizer: 'fr' }), 'raw');
  const bare = createSettings({ env: { LANG: 'fr_FR.UTF-8' }, cwd });
  assert.equal(bare.newStoreFtsTokenizer(undefined, { fts_tokenizer: 'en' }), 'en');
  assert.equal(bare.newStoreFtsTokenizer(undefined, {}), 'fr');
  assert.equal(settings.budget(300), 300);
  assert.equal(settings.budget(), 800);
  assert.equal(settings.session, 'flag-session');
  assert.equal(createSettings({ env, cwd }).session, 'env-session');
  assert.equal(bare.session, null);
  assert.equal(settings.httpToken('t'), 't');
  assert.equal(createSettings({ env: { ENGRAM_HTTP_TOKEN: '' }, cwd }).httpToken(), undefined);
  // The tools `serve` lists: flag > ENGRAM_MCP_TOOLS (as spelt; the server checks the names).
  const tools = createSettings({ env: { ENGRAM_MCP_TOOLS: 'all' }, cwd });
  assert.deepEqual([tools.mcpTools('default'), tools.mcpTools(), bare.mcpTools()], ['default', 'all', undefined]);
  assert.equal(createSettings({ env: { ENGRAM_MCP_TOOLS: '' }, cwd }).mcpTools(), undefined);
});

test('a malformed variable fails only where it is used, with the message of today', () => {
  const settings = createSettings({ env: { ENGRAM_BUDGET: 'abc', ENGRAM_SECRECY: 'S9', ENGRAM_FTS_TOKENIZER: 'de' }, cwd });
  assert.equal(settings.budget(5), 5);
  assert.throws(() => settings.budget(), { code: 'PARAM_ERROR', message: 'Invalid ENGRAM_BUDGET \'abc\'' });
  assert.throws(() => settings.secrecy(), { code: 'PARAM_ERROR', message: 'Invalid ENGRAM_SECRECY \'S9\'' });
  assert.equal(settings.secrecy('S0'), 'S0');
  assert.throws(() => settings.ftsTokenizer(), { code: 'PARAM_ERROR', message: 'Invalid ENGRAM_FTS_TOKENIZER \'de\'' });
});

test('the store: --db, then ENGRAM_DB (empty is unset); NO_COLOR set to anything; full text unless off', () => {
  const env = { ENGRAM_DB: 'env.db', NO_COLOR: '', ENGRAM_FTS: 'off', HOME: '/home/u' };
  assert.equal(createSettings({ env, cwd, flags: { db: 'flag.db' } }).store().path, '/work/project/flag.db');
  const fromEnv = createSettings({ env, cwd });
  assert.equal(fromEnv.store().source, 'env');
  assert.equal(fromEnv.noColor, true);
  assert.equal(fromEnv.fullText, false);
  assert.equal(createSettings({ env: { ENGRAM_DB: '' }, cwd }).dbEnv, undefined);
  assert.throws(() => Object.assign(fromEnv, { session: 'x' }), TypeError, 'frozen');
});

test('the embedder: --embedder > ENGRAM_EMBEDDER > config; none turns it off; the key from the environment', () => {
  const env = { ENGRAM_EMBEDDER: 'ollama:env-model', OPENAI_API_KEY: 'k-openai' };
  const config = { embedder: 'ollama:config-model' };
  assert.deepEqual(createSettings({ env, cwd }).withFlags({ embedder: 'ollama:flag' }).embedder(config), {
    spec: 'ollama:flag',
    apiKey: undefined,
  });
  assert.equal(createSettings({ env, cwd }).embedder(config)?.spec, 'ollama:env-model');
  assert.equal(createSettings({ env: {}, cwd }).embedder(config)?.spec, 'ollama:config-model');
  assert.equal(createSettings({ env: {}, cwd }).embedder({}), undefined);
  assert.equal(createSettings({ env: { ENGRAM_EMBEDDER: 'none' }, cwd }).embedder(config), undefined);
  const both = { ENGRAM_EMBED_API_KEY: 'k-engram', OPENAI_API_KEY: 'k-openai' };
  assert.equal(createSettings({ env: both, cwd }).embedder(config)?.apiKey, 'k-engram');
  assert.equal(createSettings({ env: {}, cwd }).embedder(config)?.apiKey, undefined);
  // OpenAI's own key goes to OpenAI's hosted API only; engram's key goes where it is configured.
  const hosted = (spec: string, keys: Record<string, string>) =>
    createSettings({ env: keys, cwd }).withFlags({ embedder: spec }).embedder({})?.apiKey;
  assert.equal(hosted('openai:text-embedding-3-small', { OPENAI_API_KEY: 'k-openai' }), 'k-openai');
  assert.equal(hosted('openai:m@https://api.openai.com/v1', { OPENAI_API_KEY: 'k-openai' }), 'k-openai');
  assert.equal(hosted('openai:m@http://127.0.0.1:8080/v1', { OPENAI_API_KEY: 'k-openai' }), undefined);
  assert.equal(hosted('openai:m@https://llm.example.net/v1', { OPENAI_API_KEY: 'k-openai' }), undefined);
  assert.equal(hosted('openai:m@https://llm.example.net/v1', { ENGRAM_EMBED_API_KEY: 'k-engram' }), 'k-engram');
});

test('the config\'s embedder: null is none; a value of another type fails only when it is the one used', () => {
  assert.equal(createSettings({ env: {}, cwd }).embedder({ embedder: null }), undefined);
  const invalid = { embedder: new EngramError('PARAM_ERROR', 'Invalid /p/.engram/config.json: embedder must be a string or null, not a number') };
  assert.throws(() => createSettings({ env: {}, cwd }).embedder(invalid), { code: 'PARAM_ERROR', message: /config\.json: embedder/ });
  assert.equal(createSettings({ env: { ENGRAM_EMBEDDER: 'ollama:m' }, cwd }).embedder(invalid)?.spec, 'ollama:m');
  assert.equal(createSettings({ env: {}, cwd, flags: { embedder: 'none' } }).embedder(invalid), undefined);
});

test('a relative model2vec path is made absolute: the flag and the variable against the working directory', () => {
  assert.equal(anchorModelPath('model2vec:./models/potion-base-8M', '/p'), 'model2vec:/p/models/potion-base-8M');
  assert.equal(anchorModelPath('model2vec: models/m ', '/p'), 'model2vec:/p/models/m');
  assert.equal(anchorModelPath('model2vec:/abs/m', '/p'), 'model2vec:/abs/m');
  assert.equal(anchorModelPath('model2vec:', '/p'), 'model2vec:');
  assert.equal(anchorModelPath('ollama:nomic-embed-text', '/p'), 'ollama:nomic-embed-text');
  assert.equal(createSettings({ env: { ENGRAM_EMBEDDER: 'model2vec:m' }, cwd }).embedder({})?.spec, 'model2vec:/work/project/m');
  assert.equal(createSettings({ env: {}, cwd, flags: { embedder: 'model2vec:../m' } }).embedder({})?.spec, 'model2vec:/work/m');
});

test('the recall tokenizer: --tokenizer > ENGRAM_TOKENIZER > config; none set is the default; a bad name fails where used', () => {
  const env = { ENGRAM_TOKENIZER: 'cl100k' };
  const config = { tokenizer: 'chars' as const };
  assert.equal(createSettings({ env, cwd, flags: { tokenizer: 'o200k' } }).tokenizer(config), 'o200k');
  assert.equal(createSettings({ env, cwd }).tokenizer(config), 'cl100k');
  assert.equal(createSettings({ env: {}, cwd }).tokenizer(config), 'chars');
  assert.equal(createSettings({ env: { ENGRAM_TOKENIZER: '' }, cwd }).tokenizer({}), undefined);
  const bad = createSettings({ env: { ENGRAM_TOKENIZER: 'gpt2' }, cwd });
  assert.equal(bad.budget(5), 5);
  assert.throws(() => bad.tokenizer({}), { code: 'PARAM_ERROR', message: 'Invalid ENGRAM_TOKENIZER \'gpt2\'' });
  assert.throws(() => createSettings({ env: {}, cwd, flags: { tokenizer: 'O200K' } }).tokenizer({}), {
    code: 'PARAM_ERROR',
    message: 'Invalid --tokenizer \'O200K\'',
  });
  assert.equal(bad.withFlags({ tokenizer: 'chars' }).tokenizer({}), 'chars');
});
