import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretCases } from '../../test/adversarial/secrets.js';
import { seeded } from '../../test/adversarial/case.js';
import { setScreening, tablesFit } from './screen.js';
import { SECRET_PATTERN_RULES } from './secret-check.js';
import { holdsNoSecret, recordedText } from './secret-precheck.js';
import { SECRET_SCREEN_LITERALS } from './secret-screen-literals.generated.js';
import { findsSecret, maskSecrets, redactSecrets, secretSpans } from './secret-spans.js';

/** Words of plain queries, of credentials' context and of provider prefixes, and separators. */
const WORDS = [
  'which', 'port', 'does', 'staging', 'use', 'deploy', 'the', 'database', 'auth', 'token', 'key', 'api', 'secret',
  'password', 'pwd', 'is', 'was', 'github', 'aws', 'AKIA', 'ghp_', 'sk-', 'xoxb-', 'glpat-', 'AIza', 'eyJ', 'BEGIN',
  'PRIVATE', 'KEY', 'Bearer', 'Authorization:', 'mysql', '-p', 'user:pass@host', 'https://x.io', 'npm_', 'hf_',
  'clave', 'mot de passe', 'Passwort:', '=', ':', '->', '.', ',', '(', ')', '[', ']', '{', '}', '@', '#', '$', '/',
];
const SEPARATORS = [' ', ' ', ' ', '', '\t', ': ', '=', '/', '-'];

function randomQuery(random: () => number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#*-=?@^_~';
  const parts = Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
    const roll = random();
    if (roll < 0.7) return WORDS[Math.floor(random() * WORDS.length)] ?? '';
    // A token of random characters, short or long, as a value would be.
    return Array.from({ length: 4 + Math.floor(random() * 40) }, () => chars[Math.floor(random() * chars.length)]).join('');
  });
  return parts.map((p) => `${p}${SEPARATORS[Math.floor(random() * SEPARATORS.length)] ?? ' '}`).join('').trim();
}

/** Ways a text can hide what it says from the text as written: each makes another token view. */
const DISGUISES: ((text: string) => string)[] = [
  (t) => t.replace(/[A-Za-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
  (t) => Buffer.from(t).toString('base64'),
  (t) => t.replace(/(.{4})/, '$1"+"'),
  (t) => t.replace(/(.{4})/, '$1\n'),
  (t) => t.replace(/[A-Za-z]/, (c) => `&#${c.charCodeAt(0)};`),
  (t) => t.replace(/a/g, '\u0430'),
  (t) => t.replace(/(.{3})/, '$1\u200b'),
  (t) => [...t].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
];

test('the precheck reads the secret rules\' own tables: every secret rule is a token rule and the tables fit', () => {
  assert.ok(SECRET_PATTERN_RULES.every((rule) => rule.kind === 'token'));
  assert.equal(tablesFit(SECRET_PATTERN_RULES, SECRET_SCREEN_LITERALS), true);
});

test('a text the precheck clears is returned by redactSecrets as it is (random queries, secrets, disguised secrets)', () => {
  const random = seeded(0x5ec);
  const texts: string[] = [];
  for (let i = 0; i < 4000; i++) texts.push(randomQuery(random));
  const secrets = secretCases().map((c) => c.text);
  texts.push(...secrets);
  for (const secret of secrets.slice(0, 400)) for (const disguise of DISGUISES) texts.push(disguise(secret));
  let cleared = 0;
  for (const text of texts) {
    if (!holdsNoSecret(text)) continue;
    cleared++;
    assert.equal(maskSecrets(text), text, JSON.stringify(text));
    assert.equal(redactSecrets(text), text, JSON.stringify(text));
    assert.deepEqual(secretSpans(text), [], JSON.stringify(text));
    assert.equal(findsSecret(text), false, JSON.stringify(text));
  }
  // It clears many of the queries (plain words), and no secret of the corpus.
  assert.ok(cleared > 500, `${cleared} cleared`);
  assert.equal(secrets.filter((text) => holdsNoSecret(text) && maskSecrets(text) !== text).length, 0);
  // Every secret of the corpus is still masked.
  assert.equal(secrets.filter((text) => redactSecrets(text) !== maskSecrets(text)).length, 0);
});

test('texts with another view are never cleared, whatever they say', () => {
  for (const text of ['it is "x"', 'a\nb', 'a & b', '50%', 'a+b', 'back\\slash', 'naïve', 'tab\u0001', 'AAAAAAAAAAAAAAAA']) {
    assert.equal(holdsNoSecret(text), false, JSON.stringify(text));
  }
  assert.equal(holdsNoSecret('which port does staging use'), true);
});

test('with screening off nothing is cleared; recordedText masks a secret and keeps a plain query', async (t) => {
  setScreening('never');
  t.after(() => setScreening('always'));
  assert.equal(holdsNoSecret('which port does staging use'), false);
  setScreening('always');
  const key = ['AK', 'IA', 'Q3EGRIVMD5NJ4XL2'].join('');
  assert.equal(await recordedText(`rotate ${key} today`), 'rotate [REDACTED] today');
  assert.equal(await recordedText('which port does staging use'), 'which port does staging use');
});
