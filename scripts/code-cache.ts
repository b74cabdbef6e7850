/**
 * Build step, run by `bundle.ts` in a node of its own (no flags: V8 refuses a cache made under
 * other flags): runs the commands agents call in loops on a scratch store, through the chunk
 * loader, then writes the code cache of every chunk they loaded (`dist/bundle/code-cache/`). See
 * src/cli/chunk-loader.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadChunk, writeCodeCaches } from '../src/cli/chunk-loader.js';
import type { start as Start } from '../src/cli/start.js';

const bundle = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const { start } = loadChunk(join(bundle, 'start.cjs')) as { start: typeof Start };
const dir = mkdtempSync(join(tmpdir(), 'engram-code-cache-'));
const prompt = JSON.stringify({ session_id: 'build', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: 'deploy port' });
const environment = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ENGRAM_')));
const runs: [string[], string?][] = [
  [['put', '--content', 'The staging database listens on port 5433', '--tags', 'db,staging']],
  [['put', '--content', 'Deploys go out from the release branch after review', '--layer', 'project', '--key', 'deploy']],
  [['put', '-'], 'Notes piped in: the API answers on https://api.example.com/v2'],
  [['list', '--limit', '5']],
  [['--json', 'list', '--tier', 'stm']],
  [['search', 'deploy port']],
  [['--json', 'search', 'database']],
  [['recall', 'which port does the staging database use']],
  [['get', '--layer', 'project', '--key', 'deploy']],
  [['hook', 'prompt-submit'], prompt],
  [['hook', 'session-start'], JSON.stringify({ session_id: 'build', cwd: dir, hook_event_name: 'SessionStart' })],
];
try {
  for (const [argv, input] of runs) {
    const sink = () => Object.assign(new PassThrough().resume(), { isTTY: false });
    const io = {
      env: { ...environment, HOME: dir, ENGRAM_DAEMON: 'off' },
      cwd: dir,
      stdin: Object.assign(Readable.from([input ?? '']), { isTTY: input === undefined }),
      stdout: sink(),
      stderr: sink(),
      exit: () => undefined,
    };
    const code = await start(['--db', join(dir, 'memory.db'), ...argv], io);
    if (code !== 0) throw new Error(`engram ${argv.join(' ')} exited ${code}`);
  }
  process.stdout.write(`code cache: ${writeCodeCaches()} chunks\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
