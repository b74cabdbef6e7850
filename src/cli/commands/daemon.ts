/**
 * `engram daemon start|stop|status|run`: the user's warm engram. While it runs, `list`, `search`,
 * `recall`, `get`, `put`, `brief` and `hook` run in it (see `daemon/client.ts`) instead of loading
 * and compiling the CLI in a new process each time: for agents and hooks that call engram in loops.
 * Nothing changes without it; it ends by itself after `--idle` minutes without a command.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import type { CliContext, CommandOutput } from '../context.js';
import { socketIn } from '../daemon/paths.js';
import { askDaemon, DEFAULT_IDLE_MINUTES, type DaemonStatus } from '../daemon/server.js';
import { exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';

const ACTIONS = ['start', 'stop', 'status', 'run'] as const;
type Action = (typeof ACTIONS)[number];

interface DaemonFlags {
  idle?: number;
}

/** How long `start` waits for the new daemon to answer, and `stop` for the old one to go. */
const WAIT_MS = 5000;

function folderOf(ctx: CliContext): string {
  const dir = ctx.settings.daemonDir();
  if (dir === undefined) {
    throw new EngramError('PARAM_ERROR', 'engram daemon needs Unix sockets, which this platform does not use', {
      hint: 'Commands run in their own process here.',
    });
  }
  return dir;
}

async function waitFor(check: () => Promise<boolean>): Promise<boolean> {
  for (let waited = 0; waited < WAIT_MS; waited += 50) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function shown(state: string, status: DaemonStatus | undefined, socket: string, off: boolean): CommandOutput {
  const data = { state, socket, daemon_off: off, ...(status === undefined ? {} : { daemon: status }) };
  const lines = [
    status === undefined
      ? `engram daemon: ${state} (${socket})`
      : `engram daemon: ${state}, pid ${status.pid}, ${status.commands} commands since ${status.started_at}, ends after ${status.idle_minutes} idle minutes (${socket})`,
  ];
  if (off && status !== undefined) lines.push('ENGRAM_DAEMON=off here: commands of this shell run in their own process.');
  return { kind: 'block', text: `${lines.join('\n')}\n`, data };
}

async function act(ctx: CliContext, action: Action, flags: DaemonFlags): Promise<CommandOutput> {
  const dir = folderOf(ctx);
  const socket = socketIn(dir);
  const idleMinutes = flags.idle ?? DEFAULT_IDLE_MINUTES;
  if (action === 'run') {
    const { asRunBy, serveDaemon } = await import('../daemon/server.js');
    const { runCli } = await import('../run-cli.js');
    ctx.info(`daemon listening at ${socket}`);
    await serveDaemon({
      dir,
      idleMs: idleMinutes * 60_000,
      run: (request, io) =>
        asRunBy(request, () => runCli({ argv: request.argv, env: request.env, cwd: request.cwd, ...io })),
    });
    return shown('stopped', undefined, socket, ctx.settings.daemonOff);
  }
  if (action === 'status') {
    const status = await askDaemon(socket, 'status');
    return shown(status === undefined ? 'not running' : 'running', status, socket, ctx.settings.daemonOff);
  }
  if (action === 'stop') {
    const status = await askDaemon(socket, 'stop');
    if (status !== undefined) await waitFor(async () => (await askDaemon(socket, 'status', 500)) === undefined);
    return shown(status === undefined ? 'not running' : 'stopped', status, socket, ctx.settings.daemonOff);
  }
  const running = await askDaemon(socket, 'status');
  if (running !== undefined) return shown('already running', running, socket, ctx.settings.daemonOff);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const entry = process.argv[1] ?? '';
  // What the daemon says (why it could not start) goes to a log beside its socket.
  const logFile = socket.replace(/\.sock$/, '.log');
  const log = openSync(logFile, 'a', 0o600);
  const child = spawn(process.execPath, [entry, 'daemon', 'run', '--idle', String(idleMinutes)], {
    detached: true,
    stdio: ['ignore', 'ignore', log],
    cwd: dir,
    env: ctx.settings.llmEnv(),
  });
  closeSync(log);
  let failed: Error | undefined;
  child.on('error', (error) => (failed = error));
  child.unref();
  let status: DaemonStatus | undefined;
  const up = await waitFor(async () => failed !== undefined || (status = await askDaemon(socket, 'status', 500)) !== undefined);
  if (!up || status === undefined) {
    throw new EngramError('GENERAL_ERROR', `The daemon did not start listening at ${socket}${failed ? `: ${failed.message}` : ''}`, {
      hint: `See ${logFile}, or run \`engram daemon run\` in a terminal to see why.`,
    });
  }
  return shown('started', status, socket, ctx.settings.daemonOff);
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('<action>', `${ACTIONS.join(' | ')}`)
    .addOption(intOption('--idle <minutes>', `end after this many minutes without a command (default ${DEFAULT_IDLE_MINUTES})`, 1))
    .addHelpText('after', exampleText(
      'engram daemon start',
      'engram daemon status --json',
      'engram daemon stop',
      'ENGRAM_DAEMON=off engram recall "deploy"   # this command without the daemon',
    ))
    .action(
      run(async (ctx: CliContext, action: string, flags: DaemonFlags): Promise<CommandOutput> => {
        if (!(ACTIONS as readonly string[]).includes(action)) {
          throw new EngramError('PARAM_ERROR', `Invalid action '${action}'`, { hint: `Valid values: ${ACTIONS.join(', ')}` });
        }
        return act(ctx, action as Action, flags);
      }),
    );
}
