import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasCjk, loadSegmenter, segmentedCopy } from './segment.js';

test('jieba splits Chinese runs into words and drops one-character ones', async () => {
  const segment = await loadSegmenter();
  const copy = segmentedCopy('API rule: 密码至少8位，失败重试限制', segment).split(' ');
  assert.ok(copy.includes('密码'), copy.join('|'));
  assert.ok(copy.includes('失败'));
  assert.ok(!copy.includes('位'));
  assert.ok(segmentedCopy('中華民國的密碼規則', segment).split(' ').includes('密碼'), 'traditional characters');
  assert.equal(segmentedCopy('plain English only', segment), '');
});

test('hasCjk tells whether the segmenter is needed', () => {
  assert.equal(hasCjk('password'), false);
  assert.equal(hasCjk('password 密码'), true);
  assert.equal(hasCjk('カタカナ'), true);
});
