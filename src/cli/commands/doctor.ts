/** `engram doctor`: check the store; exits 4 when something is wrong. */
import type { Command } from 'commander';
import type { CliContext, CommandOutput } from '../context.js';
import { exampleText } from '../options.js';
import type { Runner } from '../runner.js';

export function configure(command: Command, run: Runner): void {
  command.addHelpText('after', exampleText('engram doctor --format text')).action(
    run(async (ctx: CliContext): Promise<CommandOutput> => {
      // A damaged store is opened all the same: reporting on it is the point.
      const engram = await ctx.open({ checkPages: false });
      const report = await engram.doctor();
      return { kind: 'data', view: 'doctor', data: { ...report }, exitCode: report.ok ? 0 : 4 };
    }),
  );
}
