/**
 * `engram daemon start|stop|status|run`: the user's warm engram. While it runs, `list`, `search`,
 * `recall`, `get`, `put`, `brief` and `hook` run in it (see `daemon/client.ts`) instead of loading
 * and compiling the CLI in a new process each time: for agents and hooks that call engram in loops.
 * Nothing changes without it (`ENGRAM_DAEMON=auto` starts it on demand); it ends by itself after
 * `--idle` minutes without a command.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import type { CliContext, CommandOutput } from '../context.js';
import { socketIn } from '../daemon/paths.js';
import { askDaemon, DEFAULT_IDLE_MINUTES, type DaemonStatus, requireSafeDir } from '../daemon/server.js';
import { spawnDaemon } from '../daemon/spawn.js';
import { exampleText, intOption } from '../options.js';
import type { Runner } from '../runner.js';
import { plural } from '../plural.js';

const ACTIONS = ['start', 'stop', 'status', 'run'] as const;
type Action = (typeof ACTIONS)[number];

interface DaemonFlags {
  idle?: number;
  all?: boolean;
}

/** How long `start` waits for the new daemon to answer, and `stop` for the old one to go. */
const WAIT_MS = 5000;
/** The longest `--idle`: a week. */
const MAX_IDLE_MINUTES = 10_080;

/** The daemon folder, refused when it is not safe (a client would not use it either). */
function folderOf(ctx: CliContext, create: boolean): string {
  const dir = ctx.settings.daemonDir();
  if (dir === undefined) {
    throw new EngramError('PARAM_ERROR', 'engram daemon needs Unix sockets, which this platform does not use', {
      hint: 'Commands run in their own process here.',
    });
  }
  requireSafeDir(dir, create);
  return dir;
}

async function waitFor(check: () => Promise<boolean>): Promise<boolean> {
  for (let waited = 0; waited < WAIT_MS; waited += 50) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** The daemons of other builds (an engram upgraded or rebuilt since) still listening in `dir`. */
async function others(dir: string, socket: string): Promise<DaemonStatus[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^daemon-[0-9a-f]{8}\.sock$/.test(n) && join(dir, n) !== socket);
  } catch {
    return [];
  }
  const found = await Promise.all(names.map((n) => askDaemon(join(dir, n), 'status', 500)));
  return found.filter((s): s is DaemonStatus => s !== undefined);
}

function line(state: string, status: DaemonStatus | undefined, socket: string): string {
  return status === undefined
    ? `engram daemon: ${state} (${socket})`
    : `engram daemon: ${state}, pid ${status.pid}, ${plural(status.commands, 'command')} since ${status.started_at}, `
      + `ends after ${status.idle_minutes} idle minutes (${socket})`;
}

function shown(
  ctx: CliContext,
  state: string,
  status: DaemonStatus | undefined,
  socket: string,
  other: DaemonStatus[] = [],
): CommandOutput {
  const { daemonOff: off, daemonAuto: auto } = ctx.settings;
  const data = {
    state, socket, daemon_off: off, daemon_auto: auto,
    ...(status === undefined ? {} : { daemon: status }),
    ...(other.length === 0 ? {} : { other_builds: other }),
  };
  const lines = [line(state, status, socket)];
  for (const o of other) lines.push(`another build's daemon: pid ${o.pid} (${o.socket}); \`engram daemon stop --all\` ends it`);
  if (off && status !== undefined) lines.push('ENGRAM_DAEMON=off here: commands of this shell run in their own process.');
  if (auto) lines.push('ENGRAM_DAEMON=auto here: a command of this shell that finds no daemon starts one.');
  return { kind: 'block', text: `${lines.join('\n')}\n`, data };
}

async function run(ctx: CliContext, dir: string, idleMinutes: number): Promise<CommandOutput> {
  const { serveDaemon } = await import('../daemon/server.js');
  const { asRunBy } = await import('../daemon/run-by.js');
  const { runCli } = await import('../run-cli.js');
  const recheck = await (await import('../../engram.js')).rememberCheckedStores();
  await serveDaemon({
    between: recheck,
    dir,
    idleMs: idleMinutes * 60_000,
    listening: (socket) => ctx.info(`daemon listening at ${socket}`),
    run: (request, io) =>
      asRunBy(request, () => runCli({ argv: request.argv, env: request.env, cwd: request.cwd, ...io })),
  });
  return shown(ctx, 'stopped', undefined, socketIn(dir));
}

async function start(ctx: CliContext, dir: string, socket: string, idleMinutes: number): Promise<CommandOutput> {
  const running = await askDaemon(socket, 'status');
  if (running !== undefined) return shown(ctx, 'already running', running, socket);
  const logFile = socket.replace(/\.sock$/, '.log');
  const child = spawnDaemon(process.argv[1] ?? '', dir, socket, ctx.settings.llmEnv(), idleMinutes);
  let failed: string | undefined;
  child.on('error', (error) => (failed = error.message));
  child.on('exit', (code) => (failed ??= `it exited with code ${code}`));
  child.unref();
  let status: DaemonStatus | undefined;
  await waitFor(async () => failed !== undefined || (status = await askDaemon(socket, 'status', 500)) !== undefined);
  if (status === undefined) {
    throw new EngramError('GENERAL_ERROR', `The daemon did not start listening at ${socket}${failed ? `: ${failed}` : ''}`, {
      hint: `See ${logFile}, or run \`engram daemon run\` in a terminal to see why.`,
    });
  }
  return shown(ctx, 'started', status, socket);
}

async function act(ctx: CliContext, action: Action, flags: DaemonFlags): Promise<CommandOutput> {
  const dir = folderOf(ctx, action === 'start' || action === 'run');
  const socket = socketIn(dir);
  const idleMinutes = flags.idle ?? DEFAULT_IDLE_MINUTES;
  if (idleMinutes > MAX_IDLE_MINUTES) {
    throw new EngramError('PARAM_ERROR', `Invalid --idle '${idleMinutes}'`, { hint: `At most ${MAX_IDLE_MINUTES} minutes (a week).` });
  }
  if (action === 'run') return run(ctx, dir, idleMinutes);
  if (action === 'start') return start(ctx, dir, socket, idleMinutes);
  if (action === 'status') {
    const status = await askDaemon(socket, 'status');
    return shown(ctx, status === undefined ? 'not running' : 'running', status, socket, await others(dir, socket));
  }
  const status = await askDaemon(socket, 'stop');
  const ended = flags.all === true ? await others(dir, socket) : [];
  await Promise.all(ended.map((o) => askDaemon(o.socket, 'stop')));
  const gone = async (path: string) => (await askDaemon(path, 'status', 500)) === undefined;
  await waitFor(async () => (await Promise.all([socket, ...ended.map((o) => o.socket)].map(gone))).every(Boolean));
  const shownStatus = shown(ctx, status === undefined ? 'not running' : 'stopped', status, socket, await others(dir, socket));
  if (ended.length > 0 && shownStatus.kind === 'block') {
    shownStatus.data.stopped_other_builds = ended.map((o) => o.pid);
    shownStatus.text += `stopped ${ended.length} daemon(s) of other builds\n`;
  }
  return shownStatus;
}

export function configure(command: Command, runner: Runner): void {
  command
    .argument('<action>', `${ACTIONS.join(' | ')}`)
    .addOption(intOption(command, '--idle <minutes>', `end after this many minutes without a command (default ${DEFAULT_IDLE_MINUTES}, at most ${MAX_IDLE_MINUTES})`, 1))
    .option('--all', 'stop: the daemons of other builds of engram too (left from before an upgrade)')
    .addHelpText('after', exampleText(
      'engram daemon start',
      'engram daemon status --json',
      'engram daemon stop --all',
      'ENGRAM_DAEMON=off engram recall "deploy"   # this command without the daemon',
      'export ENGRAM_DAEMON=auto                  # a command that finds no daemon starts one',
    ))
    .action(
      runner(async (ctx: CliContext, action: string, flags: DaemonFlags): Promise<CommandOutput> => {
        if (!(ACTIONS as readonly string[]).includes(action)) {
          throw new EngramError('PARAM_ERROR', `Invalid action '${action}'`, { hint: `Valid values: ${ACTIONS.join(', ')}` });
        }
        return act(ctx, action as Action, flags);
      }),
    );
}
