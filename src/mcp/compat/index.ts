/**
 * Other servers' tool names over engram (`engram serve --compat NAME`): served besides the
 * `memory_*` tools the server lists, never instead of them, and named so that no name is also an
 * engram tool's. Each is a thin `run` over the same facade.
 */
import { EngramError } from '../../errors.js';
import type { Tool } from '../tools/tool.js';
import { consolidationCandidates, get, recall, review, status } from './mem-context-read.js';
import { forget, remember, update } from './mem-context-write.js';

/** The compat sets, by the name `--compat` takes. */
export const COMPAT_TOOLS: ReadonlyMap<string, readonly Tool[]> = new Map([
  ['mem-context', [remember, recall, forget, get, update, status, review, consolidationCandidates]],
]);

/** The names `--compat` accepts. */
export const COMPAT_NAMES: readonly string[] = Object.freeze([...COMPAT_TOOLS.keys()]);

/**
 * The tools of a compat set (none for undefined); PARAM_ERROR for an unknown one.
 *
 * @example
 * compatTools('mem-context').map((t) => t.name); // ['remember', 'recall', 'forget', …]
 */
export function compatTools(name?: string): readonly Tool[] {
  if (name === undefined || name === '') return [];
  const tools = COMPAT_TOOLS.get(name);
  if (tools === undefined) {
    throw new EngramError('PARAM_ERROR', `Unknown --compat '${name}'`, { hint: `Valid: ${COMPAT_NAMES.join(', ')}.` });
  }
  return tools;
}

/** The compat set that has a tool of this name, if any (for the hint of a call to one not served). */
export function compatSetOf(toolName: string): string | undefined {
  for (const [set, tools] of COMPAT_TOOLS) if (tools.some((t) => t.name === toolName)) return set;
  return undefined;
}
