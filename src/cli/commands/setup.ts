/**
 * `engram setup CLIENT` / `engram teardown CLIENT`: wire engram into an agent client (its MCP
 * server entry, a short instructions section, its session hooks) in the project's files or the
 * user's own (`--project` / `--user`), or take out exactly that again. `--dry-run` prints the
 * change as a unified diff and writes nothing; `setup --list` shows which clients are installed
 * and where engram is wired.
 */
import type { Command } from 'commander';
import { EngramError } from '../../errors.js';
import { applyPlan, describePlan, planDiff } from '../../setup/apply.js';
import { CLIENTS, type Scope } from '../../setup/clients.js';
import { listClients } from '../../setup/detect.js';
import { onPath } from '../../setup/on-path.js';
import { planSetup, planTeardown } from '../../setup/plan.js';
import { MCP_CLIENTS, type McpClient } from '../../setup/server-entry.js';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';
import type { SetupResult } from '../views/setup.js';

interface SetupFlags {
  project?: boolean;
  user?: boolean;
  dryRun?: boolean;
  promptHook?: boolean;
  list?: boolean;
}

function clientOf(name: string | undefined, action: string): McpClient {
  const client = MCP_CLIENTS.find((c) => c === name);
  if (client !== undefined) return client;
  throw new EngramError('PARAM_ERROR', name === undefined ? `Name the client to ${action}` : `Unknown client '${name}'`, {
    hint: `Valid clients: ${MCP_CLIENTS.join(', ')}${action === 'set up' ? '; `engram setup --list` shows which are installed' : ''}`,
    details: name === undefined ? {} : { client: name },
  });
}

function scopeOf(client: McpClient, flags: SetupFlags): Scope {
  if (flags.project === true && flags.user === true) {
    throw new EngramError('PARAM_ERROR', 'Give one scope: --project or --user');
  }
  const spec = CLIENTS[client];
  const scope: Scope = flags.project === true ? 'project' : flags.user === true ? 'user' : spec.defaultScope;
  if (!spec.scopes.includes(scope)) {
    throw new EngramError('PARAM_ERROR', `${spec.label} has no ${scope} configuration`, {
      hint: `Use --${spec.scopes.join(' or --')}.`,
      details: { client, scope },
    });
  }
  return scope;
}

async function run(
  ctx: CliContext,
  name: string | undefined,
  flags: SetupFlags,
  teardown: boolean,
): Promise<CommandOutput> {
  const dirs = ctx.settings.clientDirs();
  if (!teardown && flags.list === true) {
    return { kind: 'data', view: 'clients', data: { clients: listClients(dirs, ctx.cwd, ctx.settings.searchPath) } };
  }
  const client = clientOf(name, teardown ? 'tear down' : 'set up');
  const scope = scopeOf(client, flags);
  const db = ctx.settings.dbFlag === '' ? undefined : ctx.settings.dbFlag;
  const options = { client, scope, project: ctx.cwd, dirs, db, promptHook: flags.promptHook === true };
  const plan = teardown ? planTeardown(options) : planSetup(options);
  const diff = planDiff(plan);
  const dryRun = flags.dryRun === true;
  const files = dryRun ? describePlan(plan) : applyPlan(plan);
  const notes = [...plan.notes];
  if (!teardown && !onPath('engram', ctx.settings.searchPath, dirs.platform)) {
    notes.push('\'engram\' is not on this PATH: install the CLI (npm install -g engram, or npm link in a checkout) so the client can start it');
  }
  const data: SetupResult = { action: plan.action, client, scope, dry_run: dryRun, changed: diff !== '', files, notes, diff };
  if (dryRun) {
    if (diff === '') ctx.info(`${client} (${scope}): nothing to change`);
    // The diff itself on stdout; the details with --json.
    return { kind: 'block', text: diff, data: { ...data } };
  }
  return { kind: 'data', view: 'setup', data };
}

export function configure(command: Command, runner: Runner): void {
  const teardown = command.name() === 'teardown';
  command
    .argument(teardown ? '<client>' : '[client]', `the client: ${MCP_CLIENTS.join(', ')}`)
    .option('--project', 'the project\'s files, in the working directory (default, but for codex and claude-desktop)')
    .option('--user', 'the user\'s own configuration, for every project (default for codex and claude-desktop)')
    .option('--dry-run', 'print the change as a unified diff; write nothing');
  if (!teardown) {
    command
      .option('--prompt-hook', 'also recall on every prompt (Claude Code, Codex): a hook on prompt submit')
      .option('--list', 'list the clients: which are installed, and where engram is wired');
  }
  command
    .addHelpText(
      'after',
      teardown
        ? exampleText('engram teardown claude-code', 'engram teardown codex --user --dry-run')
        : exampleText('engram setup --list', 'engram setup claude-code', 'engram setup cursor --user --dry-run', 'engram setup codex --prompt-hook'),
    )
    .action(
      runner(async (ctx: CliContext, name: string | undefined, flags: SetupFlags): Promise<CommandOutput> =>
        run(ctx, name, flags, teardown),
      ),
    );
}
