import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explicitProposals } from './explicit-proposals.js';

test('<memory> blocks and ```memory fences count anywhere in an answer', () => {
  const found = explicitProposals('All done.\n\n<memory title="Ports" type="fact">The API listens on 8080.</memory>\n\nAnything else?');
  assert.equal(found?.format, 'blocks');
  assert.deepEqual(found?.proposals.map((p) => [p.title, p.type, p.content]), [['Ports', 'fact', 'The API listens on 8080.']]);
  assert.equal(explicitProposals('```memory\nTitle: Queue\nType: decision\n\nWe use SQS.\n```')?.proposals[0]?.title, 'Queue');
});

test('JSON counts only when the whole answer is proposals with a title or a type, and no chat role', () => {
  const list = JSON.stringify([{ title: 'Retries', type: 'fact', content: 'Five retries.' }]);
  assert.equal(explicitProposals(list)?.format, 'json');
  assert.equal(explicitProposals(`\`\`\`json\n${list}\n\`\`\``)?.proposals.length, 1);
  assert.equal(explicitProposals(`Here is the payload:\n\`\`\`json\n${list}\n\`\`\``), undefined, 'JSON quoted in prose');
  assert.equal(explicitProposals(JSON.stringify([{ content: 'no title nor type' }])), undefined);
  assert.equal(explicitProposals(JSON.stringify({ role: 'user', content: 'hello', title: 'x' })), undefined, 'a chat message');
  assert.equal(explicitProposals(`${'['.repeat(40)}${']'.repeat(40)}`), undefined, 'deep JSON is no proposal and no error');
});

test('Markdown sections count only when every heading carries proposal fields; plain text never', () => {
  const sections = '## Deploys\nType: decision\nWe deploy on Tuesdays.\n\n## Owners\nType: fact\nAnna owns billing.';
  assert.equal(explicitProposals(sections)?.proposals.length, 2);
  assert.equal(explicitProposals(`${sections}\n\n## Notes\nJust prose here.`), undefined);
  assert.equal(explicitProposals(`Intro first.\n\n${sections}`), undefined);
  assert.equal(explicitProposals('The fix is in auth.ts: the token check ran before the parse.'), undefined);
  assert.equal(explicitProposals('   '), undefined);
});
