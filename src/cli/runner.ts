/** The bridge from a commander action to a command handler that returns data. */
import type { CliContext, CommandOutput } from './context.js';

// Commander passes positionals, then the options object, then the Command; handlers declare
// the first two and never see the Command.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- positional and flag types are declared per command
export type Handler = (ctx: CliContext, ...args: any[]) => Promise<CommandOutput>;

export type Runner = (handler: Handler) => (...args: unknown[]) => Promise<void>;
