/**
 * What a CLI command receives and returns. Commands return data; `output.ts` renders it.
 */

import type { Engram } from '../engram.js';

/** A text renderer name known to `output.ts`. */
export type View
  = | 'item'
    | 'put'
    | 'list'
    | 'search'
    | 'show'
    | 'history'
    | 'delete'
    | 'stats'
    | 'import'
    | 'init';

export type CommandOutput
  = | { kind: 'data'; view: View; data: Record<string, unknown> }
  /** Text for stdout as is (the injection block), unless JSON was asked for explicitly. */
    | { kind: 'block'; text: string; data: Record<string, unknown> }
  /** Raw lines for stdout (JSONL export), streamed. */
    | { kind: 'lines'; lines: AsyncIterable<string> };

export interface CliContext {
  /** Opens the store found by discovery; `write` creates a missing user store. */
  open(options?: { write?: boolean }): Promise<Engram>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** A warning on stderr, unless `-q`. */
  warn(message: string): void;
}
