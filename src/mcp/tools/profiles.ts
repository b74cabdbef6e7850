/**
 * Which tools a server lists (`engram serve --tools`). Every tool in `tools/list` costs each agent
 * session its description and schemas before the first question, so the default profile is the
 * daily loop only: recall before work, search for ids, propose what was learned, read, correct
 * (update) and forget. The rest (direct writes, links, review, consolidation, workspaces, the
 * session bridge, the palace, statistics and metrics) is served by `--tools all` or by name.
 */
import { EngramError } from '../../errors.js';
import { TOOLS } from './index.js';
import type { Tool } from './tool.js';

/** The tools of the default profile, in `tools/list` order. */
export const DEFAULT_TOOL_NAMES: readonly string[] = Object.freeze([
  'memory_recall',
  'memory_search',
  'memory_propose',
  'memory_read',
  'memory_update',
  'memory_forget',
]);

/** Each name `--tools` accepts: the profiles, and every tool as a profile of one. */
const CHOICES: ReadonlyMap<string, readonly string[]> = new Map([
  ['default', DEFAULT_TOOL_NAMES],
  ['all', TOOLS.map((t) => t.name)],
  ...TOOLS.map((t): [string, string[]] => [t.name, [t.name]]),
]);

/** The profile names, then every tool name: what `--tools` accepts. */
export const TOOL_CHOICES: readonly string[] = Object.freeze([...CHOICES.keys()]);

/**
 * The tools a `--tools` value names: `default` (also when undefined or empty), `all`, or a comma
 * list of profile and tool names (`default,memory_link`). Listed in the registry's order, each
 * once; an unknown name is a PARAM_ERROR that lists the valid ones.
 *
 * @example
 * selectTools('memory_recall,memory_propose').map((t) => t.name); // ['memory_recall', 'memory_propose']
 */
export function selectTools(spec?: string): readonly Tool[] {
  const names = (spec ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');
  const wanted = new Set<string>();
  for (const name of names.length === 0 ? ['default'] : names) {
    const profile = CHOICES.get(name);
    if (profile === undefined) {
      throw new EngramError('PARAM_ERROR', `Unknown tool or profile '${name}' in --tools`, {
        hint: `Valid: ${TOOL_CHOICES.join(', ')} (a comma list of these).`,
      });
    }
    for (const tool of profile) wanted.add(tool);
  }
  return TOOLS.filter((t) => wanted.has(t.name));
}
