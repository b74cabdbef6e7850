/**
 * The fast reading of a hot command's line (`put`, `recall`, `search`, `list`, `get`), which agents
 * and hooks run in loops: loading commander and declaring the program cost such a command some
 * 2 ms of its 30. A line made only of the flags and arguments the command declares, in their plain
 * forms, is read here from a table of those declarations, and the command's action runs as
 * commander would run it: the same arguments, the same options object (defaults included) and the
 * same checks of each value (option-values.ts), in the order of the line. Anything else (a flag
 * with `=`, `--`, `-`, a short cluster, `help`, a value starting with `-`, too few or too many
 * arguments, an option the table does not cover) goes to commander, with its own errors.
 *
 * The table is made at build time from commander's own declaration of each command
 * ({@link fastSpecOf}; scripts/bundle.ts puts it in the bundle), and test/fast-line.test.ts checks
 * that this reading and commander's agree on random lines. The modules (a library's tsc output)
 * have no table and always read lines with commander.
 */
import type { Command, Option } from 'commander';
import { checkedValue, type ValueKind } from './option-values.js';
import { VALUE_KIND } from './options.js';
import type { Runner } from './runner.js';

/** The commands read fast (hook has a fast reading of its own, hook-fast.ts). */
export const FAST_COMMANDS: readonly string[] = ['put', 'recall', 'search', 'list', 'get'];

/** An option as the fast reading knows it. */
export interface FastOption {
  /** The words that name it (`--budget`; `-k` and `--k`). */
  names: string[];
  /** The long name, as errors name it. */
  flag: string;
  attribute: string;
  /** Takes a value (`<value>`); else a switch, set to false by a `--no-` name. */
  takes: boolean;
  negate: boolean;
  /** How its value is checked; none: taken as written. */
  value?: ValueKind;
}

export interface FastCommand {
  /** Its arguments: how many are required, how many there are at most. */
  required: number;
  most: number;
  options: FastOption[];
  /** Its options object before the line is read (commander's defaults). */
  defaults: Record<string, unknown>;
}

export interface FastSpec {
  program: { options: FastOption[]; defaults: Record<string, unknown> };
  commands: Record<string, FastCommand>;
}

/** A line read fast: the command, its arguments (one per declared argument), its options and the program's. */
export interface FastLine {
  name: string;
  args: (string | undefined)[];
  opts: Record<string, unknown>;
  globals: Record<string, unknown>;
}

/** An option the fast reading can read: a plain flag, a switch, or a value it knows how to check. */
function fastOption(option: Option): FastOption | undefined {
  const value = (option as unknown as Record<string, ValueKind | undefined>)[VALUE_KIND];
  // Fields commander keeps but does not declare in its types.
  const more = option as unknown as { conflictsWith?: string[]; implied?: unknown };
  const plain = !option.optional && !option.variadic && !option.mandatory && option.envVar === undefined
    && option.argChoices === undefined && option.presetArg === undefined && (more.conflictsWith ?? []).length === 0
    && more.implied === undefined && (option.parseArg === undefined || value !== undefined);
  if (!plain || option.long === undefined) return undefined;
  return {
    names: [option.long, ...(option.short === undefined ? [] : [option.short])],
    flag: option.long,
    attribute: option.attributeName(),
    takes: option.required,
    negate: option.negate,
    ...(value === undefined ? {} : { value }),
  };
}

/**
 * The table of the fast reading for `names`, from `program` as the CLI declares it (with each of
 * those commands declared). A command with an argument commander would convert or gather, or with
 * an option the fast reading cannot read, is left out (its lines go to commander).
 */
export function fastSpecOf(program: Command, names: readonly string[]): FastSpec {
  const options = (of: Command) => of.options.map(fastOption).filter((o): o is FastOption => o !== undefined);
  const commands: Record<string, FastCommand> = {};
  for (const name of names) {
    const command = program.commands.find((c) => c.name() === name);
    if (command === undefined) continue;
    const args = command.registeredArguments;
    if (args.some((a) => a.variadic || a.parseArg !== undefined || a.defaultValue !== undefined)) continue;
    const readable = options(command);
    if (readable.length !== command.options.length) continue;
    commands[name] = {
      required: args.filter((a) => a.required).length,
      most: args.length,
      options: readable,
      defaults: { ...command.opts() },
    };
  }
  // The version flag prints the version and ends the run (commander's own action): never read fast.
  const programOptions = options(program).filter((o) => !o.names.includes('--version'));
  return { program: { options: programOptions, defaults: { ...program.opts() } }, commands };
}

/** Which option of `options` `word` names. */
function named(options: readonly FastOption[], word: string): FastOption | undefined {
  return options.find((o) => o.names.includes(word));
}

/** `argv` read with `spec`, or undefined when commander must read it (see the module comment). */
export function readFastLine(argv: readonly string[], spec: FastSpec): FastLine | undefined {
  let name: string | undefined;
  const args: string[] = [];
  const steps: { option: FastOption; own: boolean; value?: string }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === 'help') return undefined;
    if (!word.startsWith('-')) {
      if (name !== undefined) args.push(word);
      else if (Object.hasOwn(spec.commands, word)) name = word;
      else return undefined;
      continue;
    }
    if (word === '-' || word === '--' || word.includes('=')) return undefined;
    const own = name === undefined ? undefined : named(spec.commands[name]?.options ?? [], word);
    const global = named(spec.program.options, word);
    // A word both could take is left to commander.
    if ((own === undefined) === (global === undefined)) return undefined;
    const option = (own ?? global) as FastOption;
    if (!option.takes) {
      steps.push({ option, own: own !== undefined });
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('-')) return undefined;
    steps.push({ option, own: own !== undefined, value });
    i++;
  }
  const command = name === undefined ? undefined : spec.commands[name];
  if (name === undefined || command === undefined || args.length < command.required || args.length > command.most) {
    return undefined;
  }
  const opts: Record<string, unknown> = { ...command.defaults };
  const globals: Record<string, unknown> = { ...spec.program.defaults };
  for (const { option, own, value } of steps) {
    const into = own ? opts : globals;
    if (value === undefined) into[option.attribute] = !option.negate;
    else {
      into[option.attribute] = option.value === undefined
        ? value
        : checkedValue(option.value, option.flag, value, into[option.attribute]);
    }
  }
  // Commander passes one value per declared argument, undefined for an optional one not given.
  return { name, args: [...args, ...Array<undefined>(command.most - args.length).fill(undefined)], opts, globals };
}

/** A command's action, as commander calls it: its arguments, its options object, the command. */
type Action = (...args: unknown[]) => Promise<void>;

/**
 * A stand-in for commander's `Command` that records what a command's `configure` declares and
 * keeps its action: every method returns the stand-in (an option it makes, a stand-in too), but
 * `name`, `action`, `opts` and `optsWithGlobals`.
 */
function standIn(line: FastLine): { command: Command; action: () => Action | undefined } {
  let action: Action | undefined;
  // An option made by the stand-in: each call on it returns it, and it keeps what is set on it.
  const option = (): unknown => {
    const made: unknown = new Proxy({}, { get: (target, key) => (key in target ? target[key as never] : () => made) });
    return made;
  };
  const known: Record<string, unknown> = {
    name: () => line.name,
    createOption: option,
    action: (fn: Action) => {
      action = fn;
      return command;
    },
    opts: () => line.opts,
    optsWithGlobals: () => ({ ...line.opts, ...line.globals }),
  };
  const command = new Proxy({}, {
    get: (_, key) => (typeof key === 'string' && Object.hasOwn(known, key) ? known[key] : () => command),
  }) as Command;
  return { command, action: () => action };
}

/**
 * Runs the command of `line`: its `configure` declares it on a stand-in, and its action runs with
 * the line's arguments, options and the stand-in, as commander would call it.
 */
export async function runFastLine(
  line: FastLine,
  configure: (command: Command, run: Runner) => void,
  run: Runner,
): Promise<void> {
  const { command, action } = standIn(line);
  configure(command, run);
  const act = action();
  if (act === undefined) throw new Error(`engram ${line.name}: no action declared`);
  await act(...line.args, line.opts, command);
}
