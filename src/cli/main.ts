#!/usr/bin/env node
/** The `engram` executable: runs the CLI with the real process streams and exits with its code. */
import { runCli } from './run-cli.js';

process.exitCode = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
