import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseReply } from './protocol.js';

test('json protocol: the first non-blank line is the directive, the rest the answer', () => {
  assert.deepEqual(parseReply('\n{"need_more": true, "query": " token expiry ", "stop": false}\n\nJWT, 1 h.\n', 'json'), {
    directive: { need_more: true, query: 'token expiry', stop: false },
    answer: 'JWT, 1 h.',
  });
  assert.deepEqual(parseReply('`{"stop": true}`\r\nDone.', 'json').directive, { need_more: false, query: null, stop: true });
  assert.deepEqual(parseReply('```json\n{"need_more": true, "query": "q"}\n```\n\nAnswer.', 'json'), {
    directive: { need_more: true, query: 'q', stop: false },
    answer: 'Answer.',
  });
  assert.deepEqual(parseReply('{}', 'json'), { directive: { need_more: false, query: null, stop: false }, answer: '' });
});

test('json protocol: anything else on the first line leaves the reply unparsed and whole', () => {
  for (const reply of ['Sure! Here is the answer.\nJWT.', '["need_more"]\nx', '{"need_more": "yes"}\nx', '{"query": 3}\nx', 'null', '']) {
    const parsed = parseReply(reply, 'json');
    assert.equal(parsed.directive, null, reply);
    assert.equal(parsed.answer, reply.trimEnd());
  }
});

test('regex protocol: directive lines anywhere, removed from the answer', () => {
  assert.deepEqual(parseReply('Draft answer.\nNEED_MORE: yes\nquery: refresh tokens\nMore text.', 'regex'), {
    directive: { need_more: true, query: 'refresh tokens', stop: false },
    answer: 'Draft answer.\nMore text.',
  });
  assert.deepEqual(parseReply('STOP: yes\nFinal.', 'regex').directive, { need_more: false, query: null, stop: true });
  assert.deepEqual(parseReply('QUERY: x\nA', 'regex').directive, { need_more: true, query: 'x', stop: false });
  assert.equal(parseReply('No directive here.', 'regex').directive, null);
  assert.equal(parseReply('NEED_MORE: perhaps\nA', 'regex').directive, null);
});

test('passive protocol: the whole reply is the answer', () => {
  assert.deepEqual(parseReply('{"need_more": true, "query": "x"}\nA\n', 'passive'), {
    directive: { need_more: false, query: null, stop: true },
    answer: '{"need_more": true, "query": "x"}\nA',
  });
});
