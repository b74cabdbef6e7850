/**
 * The hot commands of the built CLI, run as real processes with a module-load recorder: for a
 * valid input, no chunk they load holds zod; for an input the light check leaves to zod, zod is
 * loaded and answers with its PARAM_ERROR, as before.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { CLI, tempDir } from './helpers.js';

interface Meta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

const meta = JSON.parse(readFileSync(join(CLI, '..', 'meta.json'), 'utf8')) as Meta;
/** The bundle's files (by base name) that hold a zod module. */
const ZOD_CHUNKS = new Set(
  Object.entries(meta.outputs)
    .filter(([, out]) => Object.keys(out.inputs).some((i) => i.includes('node_modules/zod/')))
    .map(([file]) => basename(file)),
);

/**
 * Preloaded with --require: logs every file of the bundle the process reads or opens (the
 * executable, each chunk the chunk loader compiles, and a chunk node itself would load).
 */
const RECORDER = `const fs = require('node:fs');
const log = process.env.BUNDLE_LOAD_LOG;
const record = (path) => {
  if (typeof path === 'string' && path.includes('/bundle/') && /\\.c?js$/.test(path)) fs.appendFileSync(log, path + '\\n');
};
const readFileSync = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  record(path);
  return readFileSync.call(this, path, ...rest);
};
const openSync = fs.openSync;
fs.openSync = function (path, ...rest) {
  record(path);
  return openSync.call(this, path, ...rest);
};
`;

interface Recorded {
  code: number;
  stdout: string;
  stderr: string;
  /** The files loaded that hold zod. */
  zod: string[];
}

function recorder(dir: string): (args: string[], input?: string) => Recorded {
  const preload = join(dir, 'recorder.cjs');
  const log = join(dir, 'loads.txt');
  writeFileSync(preload, RECORDER);
  return (args, input = '') => {
    writeFileSync(log, '');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, BUNDLE_LOAD_LOG: log };
    for (const key of Object.keys(env)) if (key.startsWith('ENGRAM_')) delete env[key];
    const argv = ['--require', preload, CLI, '--db', join(dir, 'm.db'), ...args];
    const run = spawnSync(process.execPath, argv, { input, env, encoding: 'utf8' });
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((path) => basename(path));
    assert.ok(loaded.length > 1, 'the recorder saw the bundle load');
    const zod = loaded.filter((f) => ZOD_CHUNKS.has(f));
    return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr, zod };
  };
}

test('list, search, recall, get, put and the hook line load no zod for a valid input', { timeout: 120_000 }, (t) => {
  assert.ok(ZOD_CHUNKS.size > 0, 'the bundle holds zod somewhere (MCP tools, other commands)');
  const run = recorder(tempDir(t));
  const put = run(['--json', 'put', '--content', 'We deploy with blue-green switches', '--tier', 'semantic', '--tags', 'deploy,ops']);
  assert.equal(put.code, 0, put.stderr);
  const id = (JSON.parse(put.stdout) as { item: { id: string; tier: string } }).item;
  assert.equal(id.tier, 'mtm', 'the tier alias is mapped as zod maps it');
  assert.deepEqual(put.zod, [], 'put');
  const keyed = run(['--json', 'put', '--content', 'port 5432', '--layer', 'project', '--key', 'db.port']);
  assert.equal(keyed.code, 0, keyed.stderr);
  assert.deepEqual(keyed.zod, [], 'put by key');
  const commands: [string, string[], string?][] = [
    ['list', ['--json', 'list', '--tier', 'semantic', '--since', '7d', '--limit', '5']],
    ['search', ['--json', 'search', 'deploy', '--k', '3']],
    ['recall', ['recall', 'how do we deploy', '--budget', '200']],
    ['get by id', ['--json', 'get', id.id]],
    ['get by key', ['--json', 'get', '--layer', 'project', '--key', 'db.port']],
    ['hook prompt-submit', ['hook', 'prompt-submit'], JSON.stringify({ prompt: 'how do we deploy' })],
    ['hook session-start', ['hook', 'session-start'], '{}'],
  ];
  for (const [name, args, input] of commands) {
    const result = run(args, input);
    assert.equal(result.code, 0, `${name}: ${result.stderr}`);
    assert.ok(result.stdout.includes('deploy') || result.stdout.includes('5432'), `${name} answered: ${result.stdout}`);
    assert.deepEqual(result.zod, [], `${name} loaded zod`);
  }
});

test('an input the light check leaves to zod loads it and fails as before', { timeout: 60_000 }, (t) => {
  const run = recorder(tempDir(t));
  assert.equal(run(['put', '--content', 'a first item']).code, 0);
  const bad = run(['--json', 'get', 'has space']);
  assert.notEqual(bad.code, 0);
  assert.ok(bad.zod.length > 0, 'zod was loaded for the refused id');
  const error = JSON.parse(bad.stderr) as Record<string, unknown>;
  assert.equal(error.error, 'PARAM_ERROR');
  assert.equal(error.message, 'Invalid id: must not contain whitespace or control characters');
  assert.equal(error.field, 'id');
});
