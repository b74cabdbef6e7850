#!/usr/bin/env node
/**
 * The `engram` executable. `--version` answers without loading the CLI; everything else runs it
 * with the real process streams and exits with its code.
 */
import { VERSION } from '../version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  const { runCli } = await import('./run-cli.js');
  process.exitCode = await runCli({
    argv,
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}
