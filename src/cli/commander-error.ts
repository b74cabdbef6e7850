/** Commander's parse errors as PARAM_ERROR, with a hint that lists what would have been valid. */
import type { Command, CommanderError } from 'commander';
import { EngramError } from '../errors.js';
import { invokedCommand } from './command-word.js';

function commandNames(program: Command): string[] {
  return program.commands.map((c) => c.name());
}

/** Turns commander's parse errors into PARAM_ERROR with a useful hint. */
export function fromCommander(error: CommanderError, program: Command, argv: string[]): EngramError {
  const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const message = first.charAt(0).toUpperCase() + first.slice(1);
  // The command the line names (not a program flag's value that happens to be a command's name).
  const name = invokedCommand(argv);
  const command = program.commands.find((c) => c.name() === name);
  let hint = rest.join(' ').trim();
  if (error.code === 'commander.unknownCommand') {
    // A command with subcommands (`policy check`) lists them; else the program's commands.
    const names = command !== undefined && command.commands.length > 0 ? commandNames(command) : commandNames(program);
    hint = `${hint} Commands: ${names.join(', ')}`.trim();
  } else if (error.code === 'commander.unknownOption') {
    const flags = (command ?? program).options.map((o) => o.long).filter(Boolean);
    const globals = program.options.map((o) => o.long).filter(Boolean);
    hint
      = `${hint} Valid flags${command ? ` for ${command.name()}` : ''}: ${[...new Set([...flags, ...globals])].join(', ')}`.trim();
  } else if (hint === '') {
    hint = `Run \`engram ${command ? `${command.name()} ` : ''}--help\` for usage.`;
  }
  return new EngramError('PARAM_ERROR', message, { hint, details: { commander: error.code } });
}
