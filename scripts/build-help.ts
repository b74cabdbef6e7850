/**
 * Build step: renders `engram --help` once, from the same command definitions, into
 * dist/src/cli/help.txt, so the executable can answer `--help` without loading the CLI.
 */
import { writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli/run-cli.js';

let text = '';
const sink = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    text += chunk.toString('utf8');
    callback();
  },
});
const code = await runCli({
  argv: ['--help'],
  env: {},
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: sink,
  stderr: sink,
});
if (code !== 0 || !text.includes('Usage: engram'))
  throw new Error(`engram --help failed (${code}): ${text}`);
writeFileSync(fileURLToPath(new URL('../src/cli/help.txt', import.meta.url)), text);
