/**
 * The fast reading of the hot commands' lines (src/cli/fast-line.ts) against commander's: on
 * random lines of each hot command's own flags and the program's, in any order, with valid and
 * invalid values, both give the action the same arguments, options and program options, or fail
 * with the same error; the lines the fast reading leaves to commander are left whole.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { buildProgram, fastLinesSpec } from '../src/cli/commander-line.js';
import { FAST_COMMANDS, type FastOption, readFastLine } from '../src/cli/fast-line.js';
import type { CliIo } from '../src/cli/run-cli.js';
import type { Runner } from '../src/cli/runner.js';
import { seeded } from './adversarial/case.js';

const sink = new PassThrough();
const io: CliIo = { argv: [], env: {}, cwd: process.cwd(), stdin: undefined as never, stdout: sink, stderr: sink };

interface Read {
  args?: unknown[];
  opts?: Record<string, unknown>;
  all?: Record<string, unknown>;
  error?: string;
}

/** What commander gives the action for `argv`, or the message it fails with. */
async function byCommander(argv: string[]): Promise<Read> {
  let read: Read = {};
  const run: Runner = () => async (...args: unknown[]) => {
    const command = args.at(-1) as { optsWithGlobals: () => Record<string, unknown> };
    const opts = { ...(args.at(-2) as Record<string, unknown>) };
    read = { args: args.slice(0, -2), opts, all: { ...command.optsWithGlobals() } };
  };
  const program = await buildProgram(run, { ...io, argv });
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    return { error: `${(error as Error).message} ${JSON.stringify((error as { hint?: string }).hint ?? '')}` };
  }
  return read;
}

function valueFor(option: FastOption, random: () => number): string {
  const bad = random() < 0.15;
  const kind = option.value;
  const words = ['alpha', 'beta', 'MEM-0123456789ab', 'db', 'ops/deploy', 'x y', '数据', '0', '12'];
  const word = () => words[Math.floor(random() * words.length)] ?? 'w';
  if (kind === undefined) return word();
  switch (kind.kind) {
    case 'enum':
      return bad ? 'bogus' : kind.values[Math.floor(random() * kind.values.length)] ?? '';
    case 'int':
      return bad ? 'abc' : String(kind.min + Math.floor(random() * 5));
    case 'number':
      return bad ? String(kind.max + 1) : String(kind.min + (kind.max - kind.min) * random());
    case 'list':
      return Array.from({ length: 1 + Math.floor(random() * 3) }, word).join(',');
    case 'time':
      // Dates, not durations: a duration is read against the clock, which moves between two readings.
      return bad ? 'garbage' : ['2026-11-01', '2026-10-31T12:00:00Z'][Math.floor(random() * 2)] ?? '2026-11-01';
    case 'json-object':
      return bad ? '[1]' : '{"source_kind":"doc"}';
  }
}

test('the fast reading gives each hot command\'s action what commander gives it, or the same error', async () => {
  const spec = await fastLinesSpec(io);
  assert.deepEqual(Object.keys(spec.commands).sort(), [...FAST_COMMANDS].sort());
  const random = seeded(0xfa57);
  let fast = 0;
  let failed = 0;
  for (let n = 0; n < 1500; n++) {
    const name = FAST_COMMANDS[n % FAST_COMMANDS.length] as string;
    const command = spec.commands[name];
    assert.ok(command !== undefined);
    const before: string[] = [];
    const after: string[] = [];
    const flag = (options: readonly FastOption[], into: string[]) => {
      const option = options[Math.floor(random() * options.length)] as FastOption;
      const word = option.names[Math.floor(random() * option.names.length)] as string;
      into.push(word);
      if (option.takes) into.push(valueFor(option, random));
    };
    for (let i = Math.floor(random() * 3); i > 0; i--) flag(spec.program.options, random() < 0.5 ? before : after);
    for (let i = Math.floor(random() * 5); i > 0; i--) flag(command.options, after);
    const positionals = command.required + Math.floor(random() * (command.most - command.required + 1));
    for (let i = 0; i < positionals; i++) after.splice(Math.floor(random() * (after.length + 1)), 0, `word${i}`);
    const argv = [...before, name, ...after];
    let read: ReturnType<typeof readFastLine>;
    let fastError: string | undefined;
    try {
      read = readFastLine(argv, spec);
    } catch (error) {
      fastError = `${(error as Error).message} ${JSON.stringify((error as { hint?: string }).hint ?? '')}`;
    }
    if (read === undefined && fastError === undefined) continue;
    const expected = await byCommander(argv);
    const where = JSON.stringify(argv);
    if (fastError !== undefined) {
      failed++;
      assert.equal(fastError, expected.error, where);
      continue;
    }
    fast++;
    assert.equal(expected.error, undefined, `${where}: commander failed with ${expected.error}`);
    assert.deepEqual(read?.args, expected.args, where);
    assert.deepEqual(read?.opts, expected.opts, where);
    assert.deepEqual({ ...read?.opts, ...read?.globals }, expected.all, where);
  }
  assert.ok(fast > 700 && failed > 50, `${fast} read fast, ${failed} failing alike`);
});

test('lines the fast reading does not read are left to commander whole', async () => {
  const spec = await fastLinesSpec(io);
  for (const argv of [
    ['recall', 'x', '--budget=5'], ['recall', '--', '-x'], ['put', '-'], ['put', '--content', '-x'], ['help', 'put'],
    ['put', '--help'], ['recall', 'x', '-h'], ['put', '--version'], ['recall'], ['recall', 'a', 'b'], ['list', 'extra'],
    ['bogus'], ['list', '--bogus'], ['search', 'x', '-k3'], ['init'], ['--db'], ['list', '--limit'],
  ]) {
    assert.equal(readFastLine(argv, spec), undefined, JSON.stringify(argv));
  }
  assert.deepEqual(readFastLine(['recall', 'port'], spec)?.args, ['port']);
  assert.deepEqual(readFastLine(['put', '--content', 'x'], spec)?.args, [undefined]);
});
