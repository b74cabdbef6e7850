/**
 * `engram capture FILE`: an agent session transcript (Claude Code, Codex, OpenCode) into memory,
 * one STM episode per turn and the assistant's explicit proposals, each turn admitted by the
 * policy on its own. Idempotent: capturing the same session again adds only new or changed turns.
 * Refused turns and unreadable lines are in the report and said on stderr; the exit code stays 0.
 */
import type { Command } from 'commander';
import { TRANSCRIPT_FORMATS } from '../../capture/transcript.js';
import type { CliContext, CommandOutput } from '../context.js';
import { enumOption, exampleText } from '../options.js';
import type { Runner } from '../runner.js';
import { noteAutoConsolidation } from '../write-notes.js';

interface CaptureFlags {
  format?: (typeof TRANSCRIPT_FORMATS)[number] | 'auto';
  scope?: string;
  auto?: boolean;
}

export function configure(command: Command, run: Runner): void {
  command
    .argument('<file>', 'the session transcript (JSONL; an `opencode export` JSON document)')
    .addOption(enumOption(command, '--format <format>', 'the client that wrote it (default auto: told from its first lines)', [...TRANSCRIPT_FORMATS, 'auto']))
    .option('--scope <scope>', 'scope of the session\'s items (default project)')
    .option('--no-auto', 'no automatic consolidation after this capture (or ENGRAM_AUTO_CONSOLIDATE=off)')
    .addHelpText(
      'after',
      exampleText(
        'engram capture ~/.claude/projects/-home-me-app/SESSION_ID.jsonl',
        'engram capture ~/.codex/sessions/2026/01/15/rollout-2026-01-15T10-00-00-SESSION_ID.jsonl --format codex',
        'opencode export SESSION_ID > session.json && engram capture session.json',
      ),
    )
    .action(
      run(async (ctx: CliContext, file: string, flags: CaptureFlags): Promise<CommandOutput> => {
        const engram = await ctx.open({ write: true, auto: flags.auto !== false });
        const report = await engram.capture({ file, format: flags.format, scope: flags.scope, cwd: ctx.cwd });
        if (report.refused > 0) ctx.warn(`${report.refused} turn(s) refused by the policy, nothing of them stored (listed under refusals)`);
        if (report.malformed.count > 0) ctx.warn(`${report.malformed.count} ${report.unit}(s) could not be read (listed under malformed)`);
        noteAutoConsolidation(ctx, report);
        return { kind: 'data', view: 'capture', data: { ...report } };
      }),
    );
}
