/**
 * What a CLI command receives and returns. Commands return data; `output.ts` renders it.
 */

import type { Settings } from '../config/settings.js';
import type { Engram } from '../engram.js';
import type { Secrecy } from '../types.js';
import type { StoreOpener } from './open-store.js';
import type { Output } from './output.js';
import type { ViewOutput } from './views/index.js';

/**
 * What a command returns: structured data (`exitCode`, default 0, lets a report such as `doctor`
 * fail the process); text for stdout as is (the injection block, the loop's answer) unless JSON
 * was asked for explicitly, with an `exitCode` too; or raw lines (JSONL export), streamed, each
 * written as it comes when `live` (an interactive session's answers).
 */
export type CommandOutput
  = | ({ kind: 'data'; exitCode?: number } & ViewOutput)
    | { kind: 'block'; text: string; data: Record<string, unknown>; exitCode?: number }
    | { kind: 'lines'; lines: AsyncIterable<string>; live?: boolean };

export interface OpenOptions {
  /**
   * The command stores new data (put, pull, ingest, import, workspace add): a missing store is
   * created. When the command ends, one line on stderr says where if it holds something; if it
   * holds nothing (the write failed or stored nothing) it is removed, unannounced. Without it a
   * missing store is NOT_FOUND and no file is created — reads, and changes to items that would
   * have to exist already.
   */
  write?: boolean;
  /**
   * `serve`: a missing store is created by the first write through it, not now; reads before that
   * answer from an empty store.
   */
  defer?: boolean;
  /**
   * A dry run of a command that would create the store (`ingest --dry-run`): a missing store is
   * an empty in-memory one, said on stderr, and no file is created.
   */
  preview?: boolean;
  /** False (`--no-auto`) turns automatic consolidation off for this run. */
  auto?: boolean;
  /** Tokenizer preset of a store created now (`serve --fts-tokenizer`). */
  ftsTokenizer?: string;
  /** Output redaction tier, over ENGRAM_SECRECY (`serve --secrecy`). */
  secrecy?: Secrecy;
  /** False (`doctor`) opens a store whose pages fail the open check, to report on it. */
  checkPages?: boolean;
}

export interface CliContext {
  /**
   * Opens the store found by discovery (`--db`, ENGRAM_DB, nearest .engram/, user store); see
   * {@link OpenOptions} for when a missing one is created.
   */
  open(options?: OpenOptions): Promise<Engram>;
  /** `-v` / `--verbose` was given. */
  verbose: boolean;
  /**
   * The run's settings (flags > environment > config file): commands read the environment
   * through it, never directly.
   */
  settings: Settings;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * stderr itself, for an interactive prompt (`chat`'s readline) and data asked for on stderr
   * (`loop --trace`, even with `-q`); messages go through warn, info, progress.
   */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** A warning on stderr, unless `-q`. */
  warn(message: string): void;
  /** A status line on stderr (not a warning), unless `-q`. */
  info(message: string): void;
  /** A progress line on stderr, redrawn in place on a terminal; silent when piped or with `-q`. */
  progress(message: string): void;
  /** Ends the command at once with `code` (the process, or in `engram daemon` only the command). */
  exit(code: number): void;
}

/** What a command context is built from: the run's streams, its output and its store opener. */
export interface ContextParts {
  settings: Settings;
  io: { cwd: string; stdin: CliContext['stdin']; stderr: CliContext['stderr']; exit?: (code: number) => void };
  output: Pick<Output, 'warn' | 'info' | 'progress'>;
  stores: Pick<StoreOpener, 'open'>;
  verbose: boolean;
}

/** The context a command runs in (the full CLI's and the hook line's alike). */
export function commandContext({ settings, io, output, stores, verbose }: ContextParts): CliContext {
  return {
    settings,
    cwd: io.cwd,
    // Read on first use: the process's stdin is made only for a command that reads it.
    get stdin() {
      return io.stdin;
    },
    stderr: io.stderr,
    warn: (message) => output.warn(message),
    info: (message) => output.info(message),
    progress: (message) => output.progress(message),
    verbose,
    open: (options) => stores.open(settings, options),
    exit: io.exit ?? ((code) => process.exit(code)),
  };
}
