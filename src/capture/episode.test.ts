import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_CONTENT_CHARS } from '../policy/rules.js';
import { grouped, LARGE_TEXT_CHARS, renderEpisode } from './episode.js';
import type { Turn } from './transcript.js';

const turn = (fields: Partial<Turn> = {}): Turn => ({
  number: 3, start: 10, end: 14, started_at: null, ended_at: null,
  request: ['Rename the flag'], attachments: [], answers: ['Looking.', 'Renamed --fast to --quick.'],
  tools: { Edit: 2, Bash: 1 }, tool_outputs: 3, tool_output_bytes: 12345, ...fields,
});

test('an episode: the request, the tools by name with their output size, the final answer only', () => {
  const episode = renderEpisode(turn({ attachments: [{ kind: 'image', bytes: 2048 }] }), 'claude-code');
  assert.equal(episode.title, 'claude-code turn 3: Rename the flag');
  assert.deepEqual(episode.parts, [[
    'Request:\nRename the flag\n[image: 2,048 bytes, not stored]',
    'Tools: Edit ×2, Bash; 3 outputs, 12,345 bytes (not stored)',
    'Answer:\nRenamed --fast to --quick.',
  ].join('\n\n')]);
  assert.equal(renderEpisode(turn(), 'codex').parts[0]?.includes('Looking.'), false);
  assert.equal(renderEpisode(turn({ answers: [] }), 'codex').parts[0]?.endsWith('Answer:\n(no answer)'), true);
});

test('the same turn gives the same hash; any change to what is stored or said gives another', () => {
  assert.equal(renderEpisode(turn(), 'x').hash, renderEpisode(turn(), 'x').hash);
  assert.notEqual(renderEpisode(turn(), 'x').hash, renderEpisode(turn({ answers: ['Looking!', 'Renamed --fast to --quick.'] }), 'x').hash);
  assert.notEqual(renderEpisode(turn(), 'x').hash, renderEpisode(turn({ tool_output_bytes: 1 }), 'x').hash);
});

test('a large text keeps its head and its size; the policy text keeps it whole; long episodes come in parts', () => {
  const big = `${'word '.repeat(LARGE_TEXT_CHARS / 5)}TAIL`;
  const episode = renderEpisode(turn({ request: [big], answers: ['ok '.repeat(1500)] }), 'codex');
  const text = episode.parts.join('');
  assert.ok(!text.includes('TAIL'));
  const left = /\n\[… ([\d,]+) more bytes not stored\]/.exec(text);
  const head = text.slice('Request:\n'.length, left?.index);
  assert.equal(Number(left?.[1]?.replaceAll(',', '')) + head.length, Buffer.byteLength(big), 'the head and the bytes left out make the text');
  assert.ok(episode.policyText.includes('TAIL'));
  assert.ok(episode.parts.length >= 2 && episode.parts.every((p) => p.length <= MAX_CONTENT_CHARS));
  assert.equal(grouped(1234567), '1,234,567');
});
