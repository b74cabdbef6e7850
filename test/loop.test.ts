/**
 * The recall–answer loop as a library function over a real store: each stopping condition, the
 * exclusion of items already given, unparsed replies, failures, and replay of the trace with no
 * model at all.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Engram, EngramError, type LlmRequest, openEngram, replayLoop, runMemoryLoop, type TraceEvent } from '../src/index.js';
import { tempDir } from './helpers.js';

const QUESTION = 'How does login work?';

async function store(t: { after: (fn: () => void) => void }): Promise<{ engram: Engram; ids: Record<string, string> }> {
  const engram = await openEngram({ path: join(tempDir(t), 'm.db') });
  t.after(() => engram.close());
  const put = async (content: string) => (await engram.put({ content })).item.id;
  return {
    engram,
    ids: {
      login: await put('Login work: the gateway checks a password, then issues a session.'),
      expiry: await put('Session expiry: sessions expire after 8 hours of inactivity.'),
      rotation: await put('Key rotation happens every 90 days for the signing keys.'),
    },
  };
}

/** A model that answers from a script, one reply per call, and keeps each request. */
function scripted(replies: readonly string[]) {
  const requests: LlmRequest[] = [];
  return {
    requests,
    provider: {
      label: 'scripted',
      complete: async (request: LlmRequest) => {
        requests.push(request);
        const reply = replies[Math.min(requests.length, replies.length) - 1];
        if (reply === undefined) throw new Error('no reply scripted');
        return reply;
      },
    },
  };
}

const directive = (value: object, answer: string) => `${JSON.stringify(value)}\n${answer}`;

function traced() {
  const events: TraceEvent[] = [];
  return { events, onEvent: (event: TraceEvent) => events.push(event), jsonl: () => events.map((e) => `${JSON.stringify(e)}\n`).join('') };
}

test('converges: a follow-up recall brings new items only, then the model stops (llm_stop)', async (t) => {
  const { engram, ids } = await store(t);
  const model = scripted([
    directive({ need_more: true, query: 'session expiry', stop: false }, 'A session, of unknown length.'),
    directive({ need_more: false, stop: true }, 'A session that expires after 8 hours idle.'),
  ]);
  const trace = traced();
  const result = await runMemoryLoop(engram, model.provider, { question: QUESTION }, trace);
  assert.equal(result.stop_reason, 'llm_stop');
  assert.equal(result.converged, true);
  assert.equal(result.calls, 2);
  assert.equal(result.answer, 'A session that expires after 8 hours idle.');
  assert.deepEqual(result.queries, ['session expiry']);
  assert.ok(result.sources.includes(ids.login as string) && result.sources.includes(ids.expiry as string));
  assert.equal(new Set(result.sources).size, result.sources.length, 'no item given twice');
  assert.match(model.requests[1]?.prompt ?? '', /sessions expire after 8 hours/);
  assert.match(model.requests[1]?.prompt ?? '', /## Previous answer\nA session, of unknown length\./);
  assert.match(model.requests[0]?.system ?? '', /"need_more"/);
  const recalls = trace.events.filter((e) => e.event === 'recall');
  assert.equal(recalls.length, 2);
  const [first, second] = recalls as [Extract<TraceEvent, { event: 'recall' }>, Extract<TraceEvent, { event: 'recall' }>];
  assert.ok(second.ids.every((id) => !first.ids.includes(id)), 'the follow-up recall leaves out what was given');
  assert.deepEqual(trace.events.at(-1), {
    event: 'stop', reason: 'llm_stop', calls: 2, converged: true, answer: result.answer, sources: result.sources,
  });
  assert.deepEqual(await replayLoop(trace.jsonl()), result);
});

test('query_cycle: a proposed query that repeats the question or a query already run', async (t) => {
  const { engram } = await store(t);
  const again = scripted([directive({ need_more: true, query: 'how does LOGIN work' }, 'Draft.')]);
  const trace = traced();
  const result = await runMemoryLoop(engram, again.provider, { question: QUESTION }, trace);
  assert.equal(result.stop_reason, 'query_cycle');
  assert.equal(result.calls, 1);
  const step = trace.events.find((e) => e.event === 'step');
  assert.equal(step?.event === 'step' && step.repeats, QUESTION);

  const cycling = scripted([
    directive({ need_more: true, query: 'key rotation' }, 'One.'),
    directive({ need_more: true, query: 'Key rotation?' }, 'Two.'),
  ]);
  const second = await runMemoryLoop(engram, cycling.provider, { question: QUESTION, max_calls: 5 });
  assert.deepEqual([second.stop_reason, second.calls, second.answer, second.converged], ['query_cycle', 2, 'Two.', false]);
});

test('max_calls: a model that never stops is cut at --max-calls, without a recall nobody reads', async (t) => {
  const { engram } = await store(t);
  const queries = ['alpha unknown', 'beta unknown', 'gamma unknown', 'delta unknown'];
  const answers = ['Perhaps passwords.', 'Maybe single sign-on through a gateway.', 'Could be hardware keys and certificates.'];
  let n = 0;
  const provider = { label: 'endless', complete: async () => directive({ need_more: true, query: queries[n] }, answers[n++] ?? '') };
  const trace = traced();
  const result = await runMemoryLoop(engram, provider, { question: QUESTION, stop_on_no_new: false }, trace);
  assert.deepEqual([result.stop_reason, result.calls, result.converged], ['max_calls', 3, false]);
  assert.deepEqual(result.queries, ['alpha unknown', 'beta unknown']);
  assert.deepEqual(await replayLoop(trace.jsonl()), result);
});

test('no_new_items: a follow-up recall with nothing new ends the loop, unless told to go on', async (t) => {
  const { engram } = await store(t);
  const replies = [directive({ need_more: true, query: 'zebra migration' }, 'Unsure.'), directive({ stop: true }, 'Done.')];
  const stopped = await runMemoryLoop(engram, scripted(replies).provider, { question: QUESTION });
  assert.deepEqual([stopped.stop_reason, stopped.calls, stopped.answer], ['no_new_items', 1, 'Unsure.']);
  const onwards = await runMemoryLoop(engram, scripted(replies).provider, {
    question: QUESTION, stop_on_no_new: false,
  });
  assert.deepEqual([onwards.stop_reason, onwards.calls, onwards.answer], ['llm_stop', 2, 'Done.']);
});

test('fixed_point: the same answer for --stable-steps steps in a row', async (t) => {
  const { engram } = await store(t);
  let n = 0;
  const provider = {
    label: 'stubborn',
    complete: async () =>
      directive({ need_more: true, query: `topic number ${'abcdefgh'[n++]}` }, 'Login checks a password, then issues a session.'),
  };
  const result = await runMemoryLoop(engram, provider, { question: QUESTION, max_calls: 6, stop_on_no_new: false });
  assert.deepEqual([result.stop_reason, result.calls, result.converged], ['fixed_point', 3, true]);
  const once = await runMemoryLoop(engram, { ...provider }, {
    question: QUESTION, max_calls: 6, stop_on_no_new: false, stable_steps: 1,
  });
  assert.equal(once.calls, 2);
});

test('an unparsed reply is the answer, or with strict an LLM_ERROR; both in the trace', async (t) => {
  const { engram } = await store(t);
  const garbage = 'Certainly! Login uses sessions.\n\n';
  const trace = traced();
  const result = await runMemoryLoop(engram, scripted([garbage]).provider, { question: QUESTION }, trace);
  assert.deepEqual([result.stop_reason, result.answer, result.converged], ['unparsed_reply', 'Certainly! Login uses sessions.', false]);

  const strict = traced();
  await assert.rejects(
    runMemoryLoop(engram, scripted([garbage]).provider, { question: QUESTION, strict: true }, strict),
    (error: EngramError) => error.code === 'LLM_ERROR' && /does not follow the json protocol/.test(error.message),
  );
  assert.deepEqual(strict.events.slice(-2).map((e) => e.event), ['step', 'error']);
  await assert.rejects(replayLoop(strict.jsonl()), (error: EngramError) => error.code === 'LLM_ERROR');
});

test('regex and passive protocols', async (t) => {
  const { engram } = await store(t);
  const regexModel = scripted(['NEED_MORE: yes\nQUERY: session expiry\nDraft.', 'STOP: yes\nFinal.']);
  const regex = await runMemoryLoop(engram, regexModel.provider, { question: QUESTION, protocol: 'regex' });
  assert.deepEqual([regex.stop_reason, regex.calls, regex.answer], ['llm_stop', 2, 'Final.']);
  const passive = scripted(['{"need_more": true, "query": "x"}\nWhole reply.']);
  const single = await runMemoryLoop(engram, passive.provider, { question: QUESTION, protocol: 'passive', system_prompt: 'Be brief.' });
  assert.deepEqual([single.stop_reason, single.calls, single.converged], ['single_pass', 1, true]);
  assert.equal(single.answer, '{"need_more": true, "query": "x"}\nWhole reply.');
  assert.doesNotMatch(passive.requests[0]?.system ?? '', /need_more/);
  assert.match(passive.requests[0]?.system ?? '', /Be brief\.$/);
});

test('a piped context is the first context; its items are never recalled again', async (t) => {
  const { engram, ids } = await store(t);
  const block = (await engram.recall({ query: 'login' })).inject_text;
  const model = scripted([directive({ need_more: true, query: 'login gateway password session' }, 'x'), directive({ stop: true }, 'y')]);
  const trace = traced();
  const result = await runMemoryLoop(engram, model.provider, { question: QUESTION, context: block }, trace);
  assert.equal(trace.events[1]?.event, 'context');
  assert.equal(result.sources[0], ids.login);
  const followUp = trace.events.find((e) => e.event === 'recall');
  assert.ok(followUp?.event === 'recall' && !followUp.ids.includes(ids.login as string));
  assert.deepEqual(await replayLoop(trace.jsonl()), result);
});

test('a failed call ends the loop with its error, recorded and replayed', async (t) => {
  const { engram } = await store(t);
  const provider = {
    label: 'slow',
    complete: async (request: LlmRequest) => {
      throw new EngramError('LLM_TIMEOUT', `No reply within ${request.timeoutMs} ms`);
    },
  };
  const trace = traced();
  await assert.rejects(runMemoryLoop(engram, provider, { question: QUESTION, timeout_ms: 1234 }, trace), /within 1234 ms/);
  assert.deepEqual(trace.events.at(-1), { event: 'error', call: 1, code: 'LLM_TIMEOUT', message: 'No reply within 1234 ms' });
  await assert.rejects(replayLoop(trace.jsonl()), (error: EngramError) => error.code === 'LLM_TIMEOUT');
});

test('replay refuses a trace that does not lead to its recorded answer, and bad settings', async (t) => {
  const { engram } = await store(t);
  const trace = traced();
  await runMemoryLoop(engram, scripted([directive({ stop: true }, 'Recorded.')]).provider, { question: QUESTION }, trace);
  const edited = trace.jsonl().replace('"answer":"Recorded."', '"answer":"Edited."');
  await assert.rejects(replayLoop(edited), (error: EngramError) => error.code === 'PARAM_ERROR');
  await assert.rejects(replayLoop('not json\n'), /Line 1 of the trace is not JSON/);
  await assert.rejects(replayLoop(trace.jsonl().split('\n').filter((l) => !l.includes('"llm"')).join('\n')), /ends before call 1/);
  await assert.rejects(runMemoryLoop(engram, scripted([]).provider, { question: QUESTION, threshold: 2 }), /threshold/);
  await assert.rejects(runMemoryLoop(engram, scripted([]).provider, { question: ' ' }), /needs a question/);
});

test('a failed recall ends the loop with its error, recorded and replayed', async (t) => {
  const { engram } = await store(t);
  const memory = {
    recall: async (input: Parameters<Engram['recall']>[0]) => {
      if ((input.exclude_ids ?? []).length > 0) throw new EngramError('DB_BUSY', 'The store is busy');
      return engram.recall(input);
    },
  };
  const trace = traced();
  const model = scripted([directive({ need_more: true, query: 'session expiry' }, 'x')]);
  await assert.rejects(runMemoryLoop(memory, model.provider, { question: QUESTION }, trace), /busy/);
  assert.deepEqual(trace.events.at(-1), { event: 'error', call: 1, code: 'DB_BUSY', message: 'The store is busy' });
  await assert.rejects(replayLoop(trace.jsonl()), (error: EngramError) => error.code === 'DB_BUSY');
});

test('--budget bounds each recall\'s block, counted by the store\'s tokenizer', async (t) => {
  const { engram } = await store(t);
  for (let i = 0; i < 12; i++) await engram.put({ content: `Login note ${i}: ${'the session cookie is refreshed on use. '.repeat(3)}` });
  const model = scripted([directive({ need_more: true, query: 'session cookie refreshed' }, 'x'), directive({ stop: true }, 'y')]);
  const trace = traced();
  await runMemoryLoop(engram, model.provider, { question: 'login session', budget: 120 }, trace);
  const recalls = trace.events.filter((e) => e.event === 'recall');
  assert.equal(recalls.length, 2);
  for (const event of recalls) assert.ok(event.event === 'recall' && event.tokens > 0 && event.tokens <= 120, JSON.stringify(event));
});

test('a proposed query over 10,000 characters is cut to the recall limit: no PARAM_ERROR, the answer kept', async (t) => {
  const { engram } = await store(t);
  const long = `session expiry ${'x'.repeat(12_000)}`;
  const model = scripted([directive({ need_more: true, query: long }, 'Login checks a password.'), directive({ stop: true }, 'Final.')]);
  const trace = traced();
  const result = await runMemoryLoop(engram, model.provider, { question: QUESTION, stop_on_no_new: false }, trace);
  assert.equal(result.answer, 'Final.');
  assert.equal(result.stop_reason, 'llm_stop');
  assert.equal(result.queries[0]?.length, 10_000);
  assert.deepEqual(await replayLoop(trace.jsonl()), result);
});

test('a provider that throws a plain Error or answers with no text fails with LLM_ERROR naming it', async (t) => {
  const { engram } = await store(t);
  const throwing = {
    label: 'mine',
    complete: async (): Promise<string> => {
      throw new Error('socket hang up\nat line 2');
    },
  };
  await assert.rejects(runMemoryLoop(engram, throwing, { question: QUESTION }), (error: unknown) => {
    assert.ok(error instanceof EngramError);
    assert.equal(error.code, 'LLM_ERROR');
    assert.equal(error.message, 'LLM mine failed: socket hang up | at line 2');
    return true;
  });
  const numeric = { label: 'numbers', complete: async () => 42 as unknown as string };
  await assert.rejects(runMemoryLoop(engram, numeric, { question: QUESTION }), (error: unknown) => {
    assert.ok(error instanceof EngramError);
    assert.equal(error.code, 'LLM_ERROR');
    assert.match(error.message, /with number, not text/);
    return true;
  });
});
