/**
 * `engram hook EVENT` without the command-line parser: the agent client runs it on every session
 * start (and, opted in, every prompt), so its start-up is the agent's wait (bench suite `hooks`).
 * `main.ts` comes here only for the command lines `engram setup` installs and their near kin:
 * global flags the hook understands before `hook`, then the event and the hook's own flags; any
 * other line (`hook --help`, an unknown global flag) goes through the full CLI, which answers it
 * the same way, only slower.
 */
import { createSettings, type Environment } from '../config/settings.js';
import { type HookFlags, hookCommand, logHookError } from './commands/hook.js';
import { type CliContext, commandContext } from './context.js';
import { createStoreOpener } from './open-store.js';
import { createOutput, type OutputStream } from './output.js';

/** The global flags with a value that a hook line may carry, and the setting each one sets. */
const VALUE_FLAGS = { '--db': 'db', '--session': 'session', '--embedder': 'embedder', '--tokenizer': 'tokenizer' } as const;
type ValueFlag = keyof typeof VALUE_FLAGS;
type Globals = Partial<Record<(typeof VALUE_FLAGS)[ValueFlag], string>>;
const SWITCHES: ReadonlySet<string> = new Set(['-q', '--quiet', '-v', '--verbose', '--json']);
const HOOK_FLAGS = { '--budget': 'budget', '--format': 'format' } as const;

export interface HookLine {
  globals: Globals;
  quiet: boolean;
  event: string | undefined;
  flags: HookFlags;
}

/** `--name value` or `--name=value` at `argv[i]`: the value and how many words it took. */
function valueAt<T extends string>(
  argv: readonly string[],
  i: number,
  names: readonly T[],
): [T, string, number] | undefined {
  const word = argv[i] ?? '';
  for (const name of names) {
    if (word === name && i + 1 < argv.length) return [name, argv[i + 1] ?? '', 2];
    if (word.startsWith(`${name}=`)) return [name, word.slice(name.length + 1), 1];
  }
  return undefined;
}

/** The hook line `argv` holds; undefined when the full CLI must read it. */
export function parseHookLine(argv: readonly string[]): HookLine | undefined {
  const globals: Globals = {};
  let quiet = false;
  let i = 0;
  while (i < argv.length && argv[i] !== 'hook') {
    const word = argv[i] ?? '';
    const value = valueAt(argv, i, Object.keys(VALUE_FLAGS) as ValueFlag[]);
    if (value !== undefined) {
      globals[VALUE_FLAGS[value[0]]] = value[1];
      i += value[2];
    } else if (SWITCHES.has(word)) {
      quiet ||= word === '-q' || word === '--quiet';
      i += 1;
    } else {
      return undefined;
    }
  }
  if (argv[i] !== 'hook') return undefined;
  const rest = argv.slice(i + 1);
  if (rest.some((word) => word === '--help' || word === '-h')) return undefined;
  const flags: HookFlags = {};
  let event: string | undefined;
  let j = 0;
  while (j < rest.length) {
    const value = valueAt(rest, j, Object.keys(HOOK_FLAGS) as (keyof typeof HOOK_FLAGS)[]);
    // Global flags may follow the command too, as the full CLI reads them.
    const global = valueAt(rest, j, Object.keys(VALUE_FLAGS) as ValueFlag[]);
    if (value !== undefined) {
      flags[HOOK_FLAGS[value[0]]] = value[1];
      j += value[2];
    } else if (global !== undefined) {
      globals[VALUE_FLAGS[global[0]]] = global[1];
      j += global[2];
    } else {
      quiet ||= rest[j] === '-q' || rest[j] === '--quiet';
      // The first word that is not a flag is the event; the rest is ignored, as the CLI's hook does.
      if (event === undefined && !(rest[j] ?? '').startsWith('-')) event = rest[j];
      j += 1;
    }
  }
  return { globals, quiet, event, flags };
}

export interface HookIo {
  env: Environment;
  cwd: string;
  stdin: CliContext['stdin'];
  stdout: OutputStream;
  stderr: OutputStream;
}

/** Runs the hook; always exit code 0 (see `commands/hook.ts`). */
export async function runHookLine(line: HookLine, io: HookIo): Promise<number> {
  let settings: CliContext['settings'] | undefined;
  // Whatever escapes (a stream's error thrown outside any promise) ends the hook as "nothing to add".
  process.on('uncaughtException', (error) => {
    if (settings !== undefined) logHookError(settings, String(line.event), error);
    process.exit(0);
  });
  const output = createOutput({ format: 'text', explicit: false, quiet: line.quiet, color: false, ...io });
  const stores = createStoreOpener(output);
  try {
    settings = createSettings({ env: io.env, cwd: io.cwd });
    settings = settings.withFlags(line.globals);
    const ctx = commandContext({ settings, io, output, stores, verbose: false });
    let result;
    try {
      result = await hookCommand(ctx, line.event, line.flags);
    } finally {
      await stores.settle();
    }
    if (result.kind === 'block' && result.text !== '') await output.write(result);
  } catch (error) {
    // Settings that cannot be read (a bad flag or ENGRAM_* variable): logged where the store would be.
    if (settings !== undefined) logHookError(settings, String(line.event), error);
  } finally {
    stores.close();
    // Done with the input: a client that keeps stdin open does not keep the hook running.
    (io.stdin as { destroy?: () => void }).destroy?.();
  }
  return 0;
}
