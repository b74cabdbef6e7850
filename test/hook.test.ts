/**
 * `engram hook EVENT`: recorded hook payloads on stdin, answers checked against the client's hook
 * protocol (`hookSpecificOutput.additionalContext`), and every failure ending in exit 0 with
 * nothing on stdout, the reason in `hook.log`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { claudeCodeSession, codexRollout, plainTurns } from './capture-fixtures.js';
import { cli, tempDir } from './helpers.js';
import { parseHookLine } from '../src/cli/hook-fast.js';
import { HOOK_EVENTS, hookCommand } from '../src/setup/hooks.js';
import { openEngram } from '../src/index.js';

/** What Claude Code sends on SessionStart (fields from its hooks reference). */
const sessionStart = (cwd: string) => JSON.stringify({
  session_id: 'abc123', transcript_path: join(cwd, 'missing.jsonl'), cwd,
  hook_event_name: 'SessionStart', source: 'startup',
});
const promptSubmit = (cwd: string, prompt: string) => JSON.stringify({
  session_id: 'abc123', transcript_path: join(cwd, 'missing.jsonl'), cwd,
  permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt,
});

function context(stdout: string, event: string): string {
  const answer = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  assert.equal(answer.hookSpecificOutput.hookEventName, event);
  return answer.hookSpecificOutput.additionalContext;
}

function project(t: { after: (fn: () => void) => void }): string {
  const dir = tempDir(t);
  assert.equal(cli(['init', dir], { cwd: dir }).code, 0);
  const put = (...args: string[]) => assert.equal(cli(['put', ...args], { cwd: dir }).code, 0);
  put('--content', 'The deploy target is fly.io in region ams', '--tier', 'ltm');
  put('--content', 'Tests run with node --test after npm run build');
  put('--content', 'Held back from prompts', '--no-injectable');
  return dir;
}

describe('engram hook', () => {
  test('session-start answers with the brief as additional context, long-term first', (t) => {
    const dir = project(t);
    const run = cli(['hook', 'session-start'], { cwd: dir, input: sessionStart(dir) });
    assert.equal(run.code, 0);
    const block = context(run.stdout, 'SessionStart');
    assert.match(block, /^\[ENGRAM_MEMORY format_version=1/);
    assert.ok(block.indexOf('fly.io') < block.indexOf('node --test'), 'the ltm item comes first');
    assert.doesNotMatch(block, /Held back/, 'items not injectable stay out');
    const small = context(cli(['hook', 'session-start', '--budget', '70'], { cwd: dir, input: sessionStart(dir) }).stdout, 'SessionStart');
    assert.ok(small.length <= 70 * 4 && small.includes('fly.io') && !small.includes('node --test'), 'the budget holds');
    for (const input of ['', 'not json {{{', '[1,2]', 'null']) {
      const bad = cli(['hook', 'session-start'], { cwd: dir, input });
      assert.deepEqual([bad.code, bad.stdout], [0, ''], `input ${JSON.stringify(input)}: nothing said`);
    }
    assert.match(readFileSync(join(dir, '.engram', 'hook.log'), 'utf8'), /session-start .*not a JSON object/);
    const none = cli(['hook', 'session-start', '--budget', '10'], { cwd: dir, input: sessionStart(dir) });
    assert.deepEqual([none.code, none.stdout], [0, ''], 'nothing fits: nothing said');
  });

  test('the installed hook lines skip the command-line parser and answer as the full CLI does', (t) => {
    assert.deepEqual(parseHookLine(['--db', '/x y/m.db', 'hook', 'session-start']), {
      globals: { db: '/x y/m.db' }, quiet: false, event: 'session-start', flags: {},
    });
    assert.deepEqual(parseHookLine(['-q', '--tokenizer=o200k', 'hook', '--budget', '90', 'prompt-submit', 'extra']), {
      globals: { tokenizer: 'o200k' }, quiet: true, event: 'prompt-submit', flags: { budget: '90' },
    });
    assert.deepEqual(parseHookLine(['hook', 'prompt-submit', '--tokenizer', 'gpt2', '--db=/m.db']), {
      globals: { tokenizer: 'gpt2', db: '/m.db' }, quiet: false, event: 'prompt-submit', flags: {},
    }, 'global flags after the command, as the full CLI reads them');
    for (const argv of [['hook', '--help'], ['--format', 'json', 'hook', 'stop'], ['put', 'hook'], ['--db']]) {
      assert.equal(parseHookLine(argv), undefined, `${argv.join(' ')}: the full CLI reads it`);
    }
    const dir = project(t);
    const fast = cli(['hook', 'session-start', '--budget', '300'], { cwd: dir, input: sessionStart(dir) });
    const brief = cli(['brief', '--budget', '300'], { cwd: dir });
    assert.deepEqual([fast.code, brief.code], [0, 0]);
    assert.match(fast.stdout, /fly\.io/);
    assert.equal(context(fast.stdout, 'SessionStart').trimEnd(), brief.stdout.trimEnd(), 'the brief, as `engram brief` prints it');
    // Lines the full CLI reads: still the hook's answer, and never a usage error.
    const full = cli(['--json', '-qv', 'hook', 'session-start'], { cwd: dir, input: sessionStart(dir) });
    assert.equal(full.code, 0);
    assert.match(context(full.stdout, 'SessionStart'), /fly\.io/, 'the hook answer, not a JSON envelope');
    for (const args of [['--format', 'json', 'hook', 'stop'], ['--unknown', 'hook', 'stop']]) {
      const run = cli(args, { cwd: dir, input: '{}', env: { ENGRAM_FORMAT: 'xml' } });
      assert.deepEqual([run.code, run.stdout], [0, ''], `${args.join(' ')}: exit 0, nothing said`);
    }
    const huge = cli(['hook', 'session-start', '--budget', '1e9'], { cwd: dir, input: sessionStart(dir) });
    assert.match(context(huge.stdout, 'SessionStart'), /budget=600\]/, 'an out-of-range budget falls back to the default');
    const badEnv = cli(['hook', 'session-start'], { cwd: dir, input: sessionStart(dir), env: { ENGRAM_FORMAT: 'xml' } });
    assert.equal(badEnv.code, 0, 'a bad ENGRAM_FORMAT does not fail a hook');
    assert.match(badEnv.stdout, /fly\.io/);
  });

  test('prompt-submit recalls for the prompt; nothing matched, nothing said', (t) => {
    const dir = project(t);
    const run = cli(['hook', 'prompt-submit'], { cwd: dir, input: promptSubmit(dir, 'where do we deploy?') });
    assert.equal(run.code, 0);
    assert.match(context(run.stdout, 'UserPromptSubmit'), /fly\.io/);
    const none = cli(['hook', 'prompt-submit'], { cwd: dir, input: promptSubmit(dir, 'quaternion zebra') });
    assert.deepEqual([none.code, none.stdout], [0, '']);
  });

  test('bad input, no store, a broken store: exit 0, nothing on stdout, the reason logged', (t) => {
    const empty = tempDir(t);
    for (const input of ['', 'not json', '[1,2]', '{"prompt": 42}']) {
      const run = cli(['hook', 'prompt-submit'], { cwd: empty, input, env: { HOME: empty } });
      assert.deepEqual([run.code, run.stdout], [0, ''], `input ${JSON.stringify(input)}`);
    }
    assert.equal(existsSync(join(empty, '.engram', 'memory.db')), false, 'a read hook creates no store');

    const broken = tempDir(t);
    mkdirSync(join(broken, '.engram'));
    writeFileSync(join(broken, '.engram', 'memory.db'), 'this is not a SQLite database, only text');
    for (const event of ['session-start', 'prompt-submit']) {
      const run = cli(['hook', event], { cwd: broken, input: promptSubmit(broken, 'deploy'), env: { HOME: broken } });
      assert.deepEqual([run.code, run.stdout], [0, ''], event);
    }
    for (const args of [['hook', 'bogus'], ['hook'], ['hook', 'stop', '--whatever', '3'], ['hook', '--budget', 'x', 'session-start']]) {
      const run = cli(args, { cwd: broken, input: '{}', env: { HOME: broken } });
      assert.deepEqual([run.code, run.stdout], [0, ''], `no usage error out of ${args.join(' ')}`);
    }
    const log = readFileSync(join(broken, '.engram', 'hook.log'), 'utf8');
    assert.match(log, /bogus .*unknown hook event/);
    assert.match(log, /session-start .*DB_ERROR|session-start .*database/i);
    assert.match(log, /prompt-submit /);
  });

  test('stop, pre-compact and session-end capture the transcript, once', (t) => {
    const dir = project(t);
    const transcript = join(dir, 'session.jsonl');
    writeFileSync(transcript, claudeCodeSession('sess-hook-1', plainTurns(12)));
    const payload = (event: string) => JSON.stringify({
      session_id: 'sess-hook-1', transcript_path: transcript, cwd: dir, hook_event_name: event, stop_hook_active: false,
    });
    const count = () => (cli(['list', '--tags', 'transcript', '--json', '--limit', '1000'], { cwd: dir }).json?.total as number);
    for (const [event, name] of [['stop', 'Stop'], ['pre-compact', 'PreCompact'], ['session-end', 'SessionEnd']] as const) {
      const run = cli(['hook', event], { cwd: dir, input: payload(name) });
      assert.deepEqual([run.code, run.stdout], [0, ''], event);
      assert.equal(count(), 12, `${event}: every turn once`);
    }
    writeFileSync(transcript, claudeCodeSession('sess-hook-1', plainTurns(15)));
    assert.equal(cli(['hook', 'stop'], { cwd: dir, input: payload('Stop') }).code, 0);
    assert.equal(count(), 15, 'a grown session adds its new turns');

    const rollout = join(dir, 'rollout.jsonl');
    writeFileSync(rollout, codexRollout('sess-codex-1', plainTurns(3)));
    const codex = cli(['hook', 'stop', '--format', 'codex'], {
      cwd: dir, input: JSON.stringify({ session_id: 'sess-codex-1', transcript_path: rollout, cwd: dir, hook_event_name: 'Stop' }),
    });
    assert.deepEqual([codex.code, codex.stdout], [0, '']);
    assert.equal(count(), 18);

    const gone = cli(['hook', 'stop'], { cwd: dir, input: JSON.stringify({ transcript_path: join(dir, 'nope.jsonl') }) });
    assert.deepEqual([gone.code, gone.stdout], [0, ''], 'a missing transcript is logged, not an error');
    assert.match(readFileSync(join(dir, '.engram', 'hook.log'), 'utf8'), /stop .*NOT_FOUND|stop .*nope\.jsonl/);
  });

  test('without engram on the PATH, the installed hook line exits with 127, which no client reads as blocking', (t) => {
    const dir = tempDir(t);
    for (const event of HOOK_EVENTS) {
      // Claude Code and Codex run the line with a shell; only exit 2 blocks (Stop: keep going).
      const run = spawnSync('/bin/sh', ['-c', hookCommand(event, undefined)], {
        cwd: dir, input: '{}', env: { PATH: dir, HOME: dir }, encoding: 'utf8',
      });
      assert.equal(run.status, 127, event);
      assert.equal(run.stdout, '');
    }
  });

  test('brief checks its input: budget, scope, secrecy, nothing else', async (t) => {
    const engram = await openEngram({ path: join(tempDir(t), 'memory.db') });
    t.after(() => engram.close());
    for (const input of [{ budget: 0 }, { budget: 1.5 }, { scope: 7 }, { secrecy: 'S9' }, { query: 'x' }]) {
      // @ts-expect-error -- wrong on purpose
      await assert.rejects(engram.brief(input), { code: 'PARAM_ERROR' }, JSON.stringify(input));
    }
    assert.equal((await engram.brief({ budget: 100, scope: 'project', secrecy: 'S0' })).inject_text, '');
  });
});
