import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngramError } from '../../errors.js';
import { conversationText } from './loop-answerer.js';
import { type ChatDeps, type ChatExchange, HISTORY_EXCHANGES, createChatSession } from './session.js';

function fakeDeps(overrides: Partial<ChatDeps> = {}) {
  const seen = {
    histories: [] as ChatExchange[][],
    infos: [] as string[],
    failures: [] as [string, string][],
    remembered: [] as string[],
  };
  const deps: ChatDeps = {
    async answer(question, history) {
      seen.histories.push([...history]);
      if (question === 'fail') throw new EngramError('LLM_ERROR', 'model down');
      return { answer: `A(${question})`, sources: question === 'none' ? [] : [{ id: 'MEM-1', title: 'One' }, { id: 'MEM-2', title: '' }] };
    },
    async remember(text) {
      seen.remembered.push(text);
      return `remembered ${text}`;
    },
    info: (message) => seen.infos.push(message),
    fail: (error, step) => seen.failures.push([step, error instanceof Error ? error.message : String(error)]),
    ...overrides,
  };
  return { deps, seen };
}

test('questions are answered with the recent exchanges; /sources lists the last answer\'s memories', async () => {
  const { deps, seen } = fakeDeps();
  const session = createChatSession(deps);
  assert.deepEqual(await session.handle('/sources'), { text: 'No answer yet.' });
  assert.deepEqual(await session.handle('   '), {});
  assert.deepEqual(await session.handle('first'), { text: 'A(first)' });
  assert.deepEqual(await session.handle('/SOURCES'), { text: 'MEM-1  One\nMEM-2  (untitled)' });
  assert.deepEqual(await session.handle('none'), { text: 'A(none)' });
  assert.deepEqual(await session.handle('/sources'), { text: 'The last answer was given no memory.' });
  for (let i = 0; i < HISTORY_EXCHANGES + 2; i++) await session.handle(`q${i}`);
  assert.deepEqual(seen.histories[0], []);
  assert.deepEqual(seen.histories[1], [{ question: 'first', answer: 'A(first)' }]);
  assert.equal(seen.histories.at(-1)?.length, HISTORY_EXCHANGES, 'only the newest exchanges go along');
  assert.equal(seen.histories.at(-1)?.at(-1)?.question, `q${HISTORY_EXCHANGES}`);
});

test('commands: /help, /quit and /exit, /remember TEXT, unknown ones; failures go to fail() and the session goes on', async () => {
  const { deps, seen } = fakeDeps();
  const session = createChatSession(deps);
  assert.match((await session.handle('/help')).text ?? '', /\/remember TEXT/);
  assert.deepEqual(await session.handle('/quit'), { quit: true });
  assert.deepEqual(await session.handle('/exit'), { quit: true });
  assert.deepEqual(await session.handle('/remember   We use port 5433  '), {});
  assert.deepEqual(seen.remembered, ['We use port 5433']);
  await session.handle('/remember');
  await session.handle('/frobnicate');
  assert.deepEqual(seen.infos, ['remembered We use port 5433', '/remember needs the text to store: /remember TEXT', 'unknown command /frobnicate; /help lists them']);
  assert.deepEqual(await session.handle('fail'), {});
  assert.deepEqual(seen.failures, [['answer', 'model down']]);
  assert.deepEqual(await session.handle('/sources'), { text: 'No answer yet.' }, 'a failed answer is not the last answer');
  assert.deepEqual(await session.handle('after'), { text: 'A(after)' });
});

test('proposals are stored only when the session stores them, after the answer; a refusal does not lose the answer', async () => {
  const pulled: string[] = [];
  const { deps, seen } = fakeDeps({
    async storeProposals(answer) {
      pulled.push(answer);
      if (answer.includes('refused')) throw new EngramError('POLICY_REJECTED', 'refused by policy');
      return answer.includes('none') ? undefined : 'stored 1 proposal(s): MEM-9';
    },
  });
  const session = createChatSession(deps);
  assert.deepEqual(await session.handle('keep'), { text: 'A(keep)' });
  assert.deepEqual(await session.handle('none'), { text: 'A(none)' });
  assert.deepEqual(await session.handle('refused'), { text: 'A(refused)' });
  assert.deepEqual(pulled, ['A(keep)', 'A(none)', 'A(refused)']);
  assert.deepEqual(seen.infos, ['stored 1 proposal(s): MEM-9']);
  assert.deepEqual(seen.failures, [['proposals', 'refused by policy']]);
});

test('the conversation text: oldest first, long answers cut', () => {
  assert.equal(conversationText([]), '');
  const text = conversationText([{ question: 'q1', answer: 'a1' }, { question: 'q2', answer: 'x'.repeat(2_000) }]);
  assert.match(text, /^Q: q1\nA: a1\n\nQ: q2\nA: x{1500}…$/);
});
