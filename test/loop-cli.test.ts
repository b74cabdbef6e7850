/**
 * `engram loop` and `engram ask` as shipped, with fake models the tests write as small node
 * scripts (converging, cycling, never stopping, garbage, sleeping past the timeout, exiting 1):
 * each stopping condition and failure, its reason in the trace, its exit code, and a replay of
 * every trace that prints the same bytes with no model call and no process started.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openEngram } from '../src/index.js';
import { CLI, cli, type CliRun, tempDir } from './helpers.js';

const QUESTION = 'How does login work?';

/** Reads the whole prompt from stdin, then runs `body` (which sees `prompt`). */
const script = (body: string) => `let prompt = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { prompt += d; });
process.stdin.on('end', () => { ${body} });
`;

/** The follow-up queries the prompt lists: `- probe N` lines. */
const PROBES = 'const n = (prompt.match(/^- probe \\d+$/gm) || []).length;';

const MODELS: Record<string, string> = {
  converging: script(`process.stdout.write(prompt.includes('## Follow-up queries already run')
    ? '{"need_more": false, "stop": true}\\nLogin checks a password; sessions expire after 8 hours idle.\\n'
    : '{"need_more": true, "query": "session expiry", "stop": false}\\nLogin checks a password.\\n');`),
  cycling: script(`process.stdout.write('{"need_more": true, "query": "session expiry"}\\nStill looking (' + prompt.length + ').\\n');`),
  endless: script(`${PROBES}
    const words = ['alpha beta gamma', 'delta epsilon zeta', 'eta theta iota', 'kappa lambda mu', 'nu xi omicron'];
    process.stdout.write(JSON.stringify({ need_more: true, query: 'probe ' + (n + 1) }) + '\\n' + words[n] + '\\n');`),
  stubborn: script(`${PROBES}
    process.stdout.write(JSON.stringify({ need_more: true, query: 'probe ' + (n + 1) }) + '\\nLogin checks a password.\\n');`),
  nothing: script(`process.stdout.write('{"need_more": true, "query": "zebra migration"}\\nNot sure.\\n');`),
  garbage: script(`process.stdout.write('Sure! Here is what I found.\\nLogin uses sessions.\\n');`),
  sleeper: script(`setTimeout(() => process.stdout.write('{"stop": true}\\nlate\\n'), 60_000);`),
  crash: script(`process.stderr.write('model crashed: quota exceeded\\n'); process.exit(1);`),
  ttl: script(`process.stdout.write('{"stop": true}\\n' + (prompt.includes('300 seconds') ? 'The TTL is 300 seconds.' : 'Unknown.') + '\\n');`),
};

/** Blocks every way of starting a process, logging each attempt to $SPAWN_LOG. */
const GUARD = `import cp from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  cp[name] = (...args) => {
    appendFileSync(process.env.SPAWN_LOG, name + ' ' + String(args[0]) + '\\n');
    throw new Error('no process may start here');
  };
}
syncBuiltinESMExports();
`;

interface Setup {
  dir: string;
  db: string;
  llm: (name: keyof typeof MODELS) => string;
  loop: (args: string[], input?: string) => CliRun;
  /** A replay with a model that would fail and leave a mark, and every process start blocked. */
  replay: (trace: string) => CliRun & { spawned: string; marked: boolean };
}

async function setup(t: { after: (fn: () => void) => void }): Promise<Setup> {
  const dir = tempDir(t);
  const db = join(dir, 'm.db');
  const engram = await openEngram({ path: db });
  await engram.put({ content: 'Login work: the gateway checks a password, then issues a session.' });
  await engram.put({ content: 'Session expiry: sessions expire after 8 hours of inactivity.' });
  engram.close();
  for (const [name, code] of Object.entries(MODELS)) writeFileSync(join(dir, `${name}.mjs`), code);
  writeFileSync(join(dir, 'guard.mjs'), GUARD);
  const marker = join(dir, 'model-was-called');
  writeFileSync(join(dir, 'mark.mjs'), `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x'); process.exit(1);`);
  const node = (file: string) => `'${process.execPath}' '${join(dir, file)}'`;
  const spawnLog = join(dir, 'spawned.log');
  return {
    dir,
    db,
    llm: (name) => node(`${name}.mjs`),
    loop: (args, input) => cli(['--db', db, 'loop', ...args], { cwd: dir, input }),
    replay: (trace) => {
      const run = cli(['--db', join(dir, 'absent.db'), 'loop', '--replay', trace, '--llm', node('mark.mjs')], {
        cwd: dir,
        env: { NODE_OPTIONS: `--import=${pathToFileURL(join(dir, 'guard.mjs')).href}`, SPAWN_LOG: spawnLog },
      });
      return { ...run, spawned: existsSync(spawnLog) ? readFileSync(spawnLog, 'utf8') : '', marked: existsSync(marker) };
    },
  };
}

function events(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

const stopOf = (path: string) => events(path).find((e) => e.event === 'stop');

/** The run and its replay print the same bytes and exit alike, with no model and no process. */
function assertReplays(s: Setup, run: CliRun, trace: string): void {
  const again = s.replay(trace);
  assert.equal(again.stdout, run.stdout, 'byte-identical stdout');
  assert.equal(again.code, run.code);
  assert.equal(again.spawned, '', 'no process started');
  assert.equal(again.marked, false, 'the model was not called');
}

test('loop: a converging model stops itself (llm_stop), exit 0; --json; the replay is byte-identical', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'converging.jsonl');
  const run = s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', trace]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, 'Login checks a password; sessions expire after 8 hours idle.\n');
  assert.match(run.stderr, /loop: llm_stop after 2 calls/);
  assert.equal(stopOf(trace)?.reason, 'llm_stop');
  assert.deepEqual(events(trace).map((e) => e.event), ['start', 'recall', 'llm', 'recall', 'step', 'llm', 'step', 'stop']);
  assertReplays(s, run, trace);

  const json = s.loop([QUESTION, '--llm', s.llm('converging'), '--json']);
  assert.equal(json.json?.stop_reason, 'llm_stop');
  assert.equal(json.json?.answer, 'Login checks a password; sessions expire after 8 hours idle.');
  assert.equal((json.json?.sources as string[]).length, 2);
  assert.deepEqual(json.json?.queries, ['session expiry']);
  // The state (the memory usage recorded by recall) moved on, the replay is still the recording.
  assertReplays(s, run, trace);
});

test('loop: --trace writes the JSONL trace to stderr', async (t) => {
  const s = await setup(t);
  const run = s.loop([QUESTION, '--llm', s.llm('converging'), '--trace']);
  const lines = run.stderr.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(lines[0]?.event, 'start');
  assert.equal(lines.at(-1)?.reason, 'llm_stop');
});

test('loop: a model that repeats its query stops at query_cycle', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'cycling.jsonl');
  const run = s.loop([QUESTION, '--llm', s.llm('cycling'), '--trace-file', trace, '--max-calls', '5']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(stopOf(trace)?.reason, 'query_cycle');
  assert.equal(stopOf(trace)?.calls, 2);
  assert.equal(events(trace).find((e) => e.event === 'step' && e.action === 'query_cycle')?.repeats, 'session expiry');
  assertReplays(s, run, trace);
});

test('loop: a model that never stops is cut at --max-calls: exit 0, or 1 with --strict', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'endless.jsonl');
  const run = s.loop([QUESTION, '--llm', s.llm('endless'), '--no-stop-on-no-new', '--trace-file', trace]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, 'eta theta iota\n');
  assert.deepEqual([stopOf(trace)?.reason, stopOf(trace)?.calls, stopOf(trace)?.converged], ['max_calls', 3, false]);
  assertReplays(s, run, trace);

  const strictTrace = join(s.dir, 'endless-strict.jsonl');
  const strict = s.loop([QUESTION, '--llm', s.llm('endless'), '--no-stop-on-no-new', '--strict', '--max-calls', '2', '--trace-file', strictTrace]);
  assert.equal(strict.code, 1);
  assert.equal(strict.stdout, 'delta epsilon zeta\n', 'the answer is still printed');
  assert.match(strict.stderr, /without converging \(--strict\)/);
  assertReplays(s, strict, strictTrace);
});

test('loop: no_new_items, or on to the next call with --no-stop-on-no-new', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'nothing.jsonl');
  const run = s.loop([QUESTION, '--llm', s.llm('nothing'), '--trace-file', trace]);
  assert.equal(run.code, 0);
  assert.deepEqual([stopOf(trace)?.reason, stopOf(trace)?.calls], ['no_new_items', 1]);
  const recall = events(trace).filter((e) => e.event === 'recall').at(-1);
  assert.deepEqual([recall?.query, recall?.ids], ['zebra migration', []]);
  assertReplays(s, run, trace);
  const onwards = join(s.dir, 'onwards.jsonl');
  s.loop([QUESTION, '--llm', s.llm('nothing'), '--no-stop-on-no-new', '--trace-file', onwards]);
  assert.equal(stopOf(onwards)?.reason, 'query_cycle');
});

test('loop: the same answer for --stable-steps steps is a fixed_point', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'stubborn.jsonl');
  const run = s.loop([QUESTION, '--llm', s.llm('stubborn'), '--no-stop-on-no-new', '--max-calls', '6', '--trace-file', trace]);
  assert.equal(run.code, 0);
  assert.deepEqual([stopOf(trace)?.reason, stopOf(trace)?.calls, stopOf(trace)?.converged], ['fixed_point', 3, true]);
  const steps = events(trace).filter((e) => e.event === 'step');
  assert.deepEqual(steps.map((e) => [e.similarity, e.stable]), [[null, 0], [1, 1], [1, 2]]);
  assertReplays(s, run, trace);
  const soon = join(s.dir, 'soon.jsonl');
  s.loop([QUESTION, '--llm', s.llm('stubborn'), '--no-stop-on-no-new', '--stable-steps', '1', '--trace-file', soon]);
  assert.equal(stopOf(soon)?.calls, 2);
});

test('loop: a garbage reply is the answer (unparsed_reply, exit 0), or LLM_ERROR with --strict', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'garbage.jsonl');
  const run = s.loop([QUESTION, '--llm', s.llm('garbage'), '--trace-file', trace]);
  assert.equal(run.code, 0);
  assert.equal(run.stdout, 'Sure! Here is what I found.\nLogin uses sessions.\n');
  assert.match(run.stderr, /did not follow the protocol/);
  assert.equal(stopOf(trace)?.reason, 'unparsed_reply');
  assertReplays(s, run, trace);

  const strictTrace = join(s.dir, 'garbage-strict.jsonl');
  const strict = s.loop([QUESTION, '--llm', s.llm('garbage'), '--strict', '--json', '--trace-file', strictTrace]);
  assert.equal(strict.code, 1);
  assert.equal(strict.error?.error, 'LLM_ERROR');
  assert.equal(strict.stdout, '');
  assert.deepEqual(events(strictTrace).slice(-2).map((e) => [e.event, e.action ?? e.code]), [['step', 'unparsed_reply'], ['error', 'LLM_ERROR']]);
  assertReplays(s, strict, strictTrace);
});

test('loop: a model past --timeout fails with LLM_TIMEOUT, one exiting 1 with LLM_ERROR and its stderr', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'sleeper.jsonl');
  const started = Date.now();
  const slow = s.loop([QUESTION, '--llm', s.llm('sleeper'), '--timeout', '1', '--json', '--trace-file', trace]);
  assert.ok(Date.now() - started < 30_000, 'never a hang');
  assert.equal(slow.code, 1);
  assert.equal(slow.error?.error, 'LLM_TIMEOUT');
  assert.deepEqual(events(trace).at(-1), { event: 'error', call: 1, code: 'LLM_TIMEOUT', message: slow.error?.message });
  assertReplays(s, slow, trace);

  const crashTrace = join(s.dir, 'crash.jsonl');
  const crash = s.loop([QUESTION, '--llm', s.llm('crash'), '--trace-file', crashTrace]);
  assert.equal(crash.code, 1);
  assert.equal(crash.error?.error, 'LLM_ERROR');
  assert.match(String(crash.error?.message), /exited with code 1: model crashed: quota exceeded/);
  assert.equal(events(crashTrace).at(-1)?.code, 'LLM_ERROR');
  assertReplays(s, crash, crashTrace);
});

test('loop: piped context first (its items never recalled again); an empty pipe falls back to recall', async (t) => {
  const s = await setup(t);
  const block = cli(['--db', s.db, 'push', 'login gateway'], { cwd: s.dir }).stdout;
  assert.match(block, /ENGRAM_MEMORY/);
  const trace = join(s.dir, 'piped.jsonl');
  const run = s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', trace], block);
  assert.equal(run.code, 0, run.stderr);
  const [context] = events(trace).filter((e) => e.event === 'context') as [{ ids: string[] }];
  assert.equal(context.ids.length, 1);
  const followUp = events(trace).find((e) => e.event === 'recall') as { call: number; ids: string[] };
  assert.equal(followUp.call, 1);
  assert.ok(!followUp.ids.includes(context.ids[0] as string));
  assertReplays(s, run, trace);

  const empty = join(s.dir, 'empty.jsonl');
  s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', empty], '  \n');
  assert.deepEqual(events(empty).slice(0, 2).map((e) => [e.event, e.call]), [['start', undefined], ['recall', 0]]);
});

test('loop: flags checked; --llm needed; replay refuses another question and a bad trace', async (t) => {
  const s = await setup(t);
  assert.equal(s.loop([QUESTION, '--json']).error?.error, 'PARAM_ERROR');
  assert.equal(s.loop([QUESTION, '--llm', 'cat', '--threshold', '1.5', '--json']).code, 2);
  assert.equal(s.loop([QUESTION, '--llm', 'cat', '--protocol', 'xml', '--json']).code, 2);
  const trace = join(s.dir, 't.jsonl');
  s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', trace]);
  assert.match(s.loop(['Another question?', '--replay', trace]).stderr, /another question/);
  assert.equal(s.loop([QUESTION, '--replay', trace]).code, 0);
  writeFileSync(join(s.dir, 'bad.jsonl'), '{"event":"start"}\nnot json\n');
  assert.equal(s.loop(['--replay', join(s.dir, 'bad.jsonl'), '--json']).error?.error, 'PARAM_ERROR');
});

test('loop: passive with --llm cat shows the prompt; --system-prompt from a file', async (t) => {
  const s = await setup(t);
  writeFileSync(join(s.dir, 'system.txt'), 'Answer in one sentence.\n');
  const run = s.loop([QUESTION, '--llm', 'cat', '--protocol', 'passive', '--system-prompt', 'system.txt']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Answer in one sentence\.\n\n## Memory\n\[ENGRAM_MEMORY[^]*## Question\nHow does login work\?\n$/);
  assert.doesNotMatch(run.stdout, /need_more/);
  const file = s.loop([QUESTION, '--llm', 'cat', '--llm-mode', 'file', '--protocol', 'passive', '--system-prompt', 'system.txt']);
  assert.equal(file.stdout, run.stdout, '--llm-mode file: the same prompt, from a file');
});

test('ask: ingests a folder, then answers from it through the loop', async (t) => {
  const s = await setup(t);
  const docs = join(s.dir, 'docs');
  mkdirSync(docs);
  writeFileSync(join(docs, 'cache.md'), '# Cache\n\nThe cache TTL is 300 seconds for every tenant.\n');
  writeFileSync(join(docs, 'deploy.md'), '# Deploy\n\nDeploys go blue-green through staging.\n');
  const db = join(s.dir, 'ask.db');
  const run = cli(['--db', db, 'ask', docs, 'What is the cache TTL?', '--llm', s.llm('ttl')], { cwd: s.dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, 'The TTL is 300 seconds.\n');
  assert.match(run.stderr, /ingested 2 file\(s\)/);
  const again = cli(['--db', db, 'ask', docs, 'What is the cache TTL?', '--llm', s.llm('ttl'), '--json'], { cwd: s.dir });
  assert.equal(again.json?.stop_reason, 'llm_stop');
  assert.match(again.stderr, /0 file\(s\), 2 unchanged/);
  assert.equal(cli(['--db', db, 'ask', 'only a question', '--llm', 'cat', '--json'], { cwd: s.dir }).error?.error, 'PARAM_ERROR');
});

test('the spawn guard blocks a real run (so an empty log in a replay means something)', async (t) => {
  const s = await setup(t);
  const guarded = cli(['--db', s.db, 'loop', QUESTION, '--llm', s.llm('converging'), '--json'], {
    cwd: s.dir,
    env: { NODE_OPTIONS: `--import=${pathToFileURL(join(s.dir, 'guard.mjs')).href}`, SPAWN_LOG: join(s.dir, 'positive.log') },
  });
  assert.notEqual(guarded.code, 0);
  assert.match(readFileSync(join(s.dir, 'positive.log'), 'utf8'), /^spawn /);
});

test('loop: --trace-file refuses the store and any file that is not a trace, and replaces an earlier trace', async (t) => {
  const s = await setup(t);
  const before = readFileSync(s.db);
  const onStore = s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', s.db, '--json']);
  assert.equal(onStore.error?.error, 'PARAM_ERROR', onStore.stderr);
  assert.match(onStore.stderr, /not a loop trace/);
  assert.deepEqual(readFileSync(s.db), before, 'the store is untouched');
  // The same through another store: the file named is still refused, whatever it is.
  const other = cli(['--db', join(s.dir, 'other.db'), 'loop', QUESTION, '--llm', s.llm('converging'), '--trace-file', s.db, '--json'], { cwd: s.dir });
  assert.equal(other.error?.error, 'PARAM_ERROR');
  assert.deepEqual(readFileSync(s.db), before);
  writeFileSync(join(s.dir, 'notes.txt'), 'my notes\n');
  assert.equal(s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', 'notes.txt', '--json']).error?.error, 'PARAM_ERROR');
  assert.equal(readFileSync(join(s.dir, 'notes.txt'), 'utf8'), 'my notes\n');
  assert.equal(s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', s.dir, '--json']).error?.error, 'PARAM_ERROR');

  const trace = join(s.dir, 'again.jsonl');
  assert.equal(s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', trace]).code, 0);
  const run = s.loop([QUESTION, '--llm', s.llm('cycling'), '--trace-file', trace]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(stopOf(trace)?.reason, 'query_cycle', 'the earlier trace is replaced');
  assert.deepEqual(readdirSync(s.dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary file left');

  // The store's -wal appears only once the store is open: checked again before the rename.
  const wal = s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', `${s.db}-wal`]);
  assert.equal(wal.code, 0, wal.stderr);
  assert.match(wal.stderr, /no longer a trace or a new file: the trace is left in /);
  assert.ok(!existsSync(`${s.db}-wal`) || !readFileSync(`${s.db}-wal`, 'utf8').startsWith('{"event"'), 'the -wal is not replaced');
});

test('loop: SIGTERM during a --llm-mode file call removes the prompt file and the command', async (t) => {
  const s = await setup(t);
  const tmp = join(s.dir, 'tmp');
  mkdirSync(tmp);
  const pidFile = join(s.dir, 'model.pid');
  const child = spawn(process.execPath, [CLI, '--db', s.db, 'loop', QUESTION, '--llm-mode', 'file', '--llm', `echo $$ > '${pidFile}'; sleep 60;`], {
    cwd: s.dir,
    env: { ...process.env, TMPDIR: tmp, HOME: s.dir },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const closed = new Promise<number | null>((done) => child.on('close', (_code, signal) => done(signal === null ? 0 : 1)));
  const deadline = Date.now() + 60_000;
  while (!existsSync(pidFile) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  assert.equal(readdirSync(tmp).filter((name) => name.startsWith('engram-llm-')).length, 1, 'the prompt file is there');
  child.kill('SIGTERM');
  assert.equal(await closed, 1, 'ended by the signal');
  assert.deepEqual(readdirSync(tmp), [], 'no prompt left behind');
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 50 && alive(); i += 1) await new Promise((done) => setTimeout(done, 100));
  assert.equal(alive(), false, 'the command is gone');
});

test('loop --replay: edited recall ids, an edited answer and events after stop are refused; loop flags are said to be ignored', async (t) => {
  const s = await setup(t);
  const trace = join(s.dir, 'run.jsonl');
  assert.equal(s.loop([QUESTION, '--llm', s.llm('converging'), '--trace-file', trace]).code, 0);
  const lines = readFileSync(trace, 'utf8').trim().split('\n');
  const edit = (name: string, change: (events: Record<string, unknown>[]) => void) => {
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    change(events);
    const path = join(s.dir, name);
    writeFileSync(path, `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
    return s.loop(['--replay', path, '--json']);
  };
  const ids = edit('ids.jsonl', (events) => {
    const recall = events.find((e) => e.event === 'recall' && e.call === 1) as { ids: string[] };
    recall.ids = ['MEM-000000000000'];
  });
  assert.equal(ids.error?.error, 'PARAM_ERROR');
  assert.match(String(ids.error?.message), /sources of the stop event/);
  const answer = edit('answer.jsonl', (events) => {
    (events.find((e) => e.event === 'stop') as { answer: string }).answer = 'Something else.';
  });
  assert.match(String(answer.error?.message), /answer of the stop event[^]*edited/);
  const after = edit('after.jsonl', (events) => {
    events.push({ event: 'recall', call: 3, query: 'more', ids: [], tokens: 0 });
  });
  assert.match(String(after.error?.message), /goes on after its stop event/);
  const flagged = s.loop(['--replay', trace, '--llm', 'cat', '--max-calls', '5']);
  assert.equal(flagged.code, 0, flagged.stderr);
  assert.match(flagged.stderr, /--llm, --max-calls ignored/);
});

test('loop: an LLM_ERROR message is one line; --system-prompt naming no regular file is PARAM_ERROR', async (t) => {
  const s = await setup(t);
  const crash = s.loop([QUESTION, '--llm', 'printf "first line\\nsecond line\\n" >&2; exit 1', '--json']);
  assert.equal(crash.error?.error, 'LLM_ERROR');
  assert.match(String(crash.error?.message), /first line \| second line$/);
  mkdirSync(join(s.dir, 'prompts'));
  for (const value of ['prompts/missing.txt', 'prompts', '/dev/zero', './nothing']) {
    const run = s.loop([QUESTION, '--llm', 'cat', '--protocol', 'passive', '--system-prompt', value, '--json']);
    assert.equal(run.error?.error, 'PARAM_ERROR', `${value}: ${run.stderr}`);
  }
  writeFileSync(join(s.dir, 'prompts', 'big.txt'), 'x'.repeat(1024 * 1024 + 1));
  assert.match(String(s.loop([QUESTION, '--llm', 'cat', '--system-prompt', 'prompts/big.txt', '--json']).error?.message), /over 1 MiB/);
  const text = s.loop([QUESTION, '--llm', 'cat', '--protocol', 'passive', '--system-prompt', 'Answer in English/French.']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^Answer in English\/French\.$/m, 'text with a slash and spaces is text');
});
