/**
 * The MCP shell's hints. Core errors are neutral to the caller (or still name a CLI flag or
 * command); before an error goes back to an MCP client, this one place may give it a hint that
 * names the tool's own parameters and tools instead (only tools the server serves). Code, message
 * and details never change.
 */
import { EngramError } from '../errors.js';

/** The tools a server serves, as far as a hint needs to know. */
export interface ServedNames {
  has(name: string): boolean;
}

const EVERY_TOOL: ServedNames = { has: () => true };

interface HintRule {
  /** Whether the rule speaks to this error from this tool. */
  applies(error: EngramError, tool: string, served: ServedNames): boolean;
  hint(error: EngramError, tool: string, served: ServedNames): string;
}

const ITEM_TOOLS: ReadonlySet<string> = new Set(['memory_update', 'memory_forget', 'memory_link', 'memory_palace_get']);

/** Policy groups whose POLICY_REJECTED hint in the core says what to do without naming the CLI. */
const GROUPS_WITH_CORE_HINT: ReadonlySet<string> = new Set(['secret', 'injection', 'instruction']);

/** One write refused by the policy (not a whole pull, whose hint says what was stored). */
function isWriteRefusal(error: EngramError): boolean {
  return error.code === 'POLICY_REJECTED' && error.message.startsWith('Rejected by policy');
}

/** The first policy group that refused a write, from a POLICY_REJECTED error's `rules` detail. */
function refusingGroup(error: EngramError): string | undefined {
  const rules = error.details.rules;
  if (!Array.isArray(rules)) return undefined;
  for (const rule of rules) {
    if (typeof rule === 'object' && rule !== null && 'action' in rule && rule.action === 'reject' && 'group' in rule) {
      return typeof rule.group === 'string' ? rule.group : undefined;
    }
  }
  return undefined;
}

/** The known workspaces the core lists in its hint, without the CLI's advice after them. */
function knownWorkspaces(error: EngramError): string {
  return /Known workspaces: [^.]*\./.exec(error.hint ?? '')?.[0] ?? '';
}

const RULES: readonly HintRule[] = [
  {
    applies: (error, tool) => error.code === 'EMPTY_INPUT' && tool === 'memory_write',
    hint: () => 'Give the memory\'s text in content.',
  },
  {
    applies: (error, tool) => error.code === 'EMPTY_INPUT' && tool === 'memory_update',
    hint: () => 'Give fields.content a text, or leave content out of fields to keep the current one.',
  },
  {
    applies: (error, _tool, served) =>
      error.code === 'NOT_FOUND' && typeof error.details.workspace === 'string' && served.has('memory_workspace_register'),
    hint: (error) => `${knownWorkspaces(error)} memory_workspace_list names them; memory_workspace_register adds one.`.trim(),
  },
  {
    // Without the workspace tools, the known names alone (the core's advice names the CLI).
    applies: (error) => error.code === 'NOT_FOUND' && typeof error.details.workspace === 'string',
    hint: (error) => knownWorkspaces(error) || 'No workspace has this name.',
  },
  {
    applies: (error, tool, served) =>
      error.code === 'NOT_FOUND' && ITEM_TOOLS.has(tool) && typeof error.details.id === 'string' && served.has('memory_search'),
    hint: () => 'memory_search finds ids.',
  },
  {
    applies: (error) => isWriteRefusal(error) && refusingGroup(error) === 'size',
    hint: () => 'Store a shorter memory (split it by idea), or where the text lives as type pointer.',
  },
  {
    // The groups the core gives no hint of its own for (it names the CLI's policy listing).
    applies: (error) => isWriteRefusal(error) && !GROUPS_WITH_CORE_HINT.has(refusingGroup(error) ?? ''),
    hint: () => 'rules lists the policy rules that refused it; nothing was stored.',
  },
  {
    applies: (error) => error.code === 'GENERAL_ERROR' && error.message === 'Unexpected internal error',
    hint: () => 'The server failed unexpectedly; retry, and report it if it persists.',
  },
];

/**
 * The error as an MCP client should see it from `tool` on a server serving `served`: the same
 * error with the MCP hint when a rule speaks to it, else unchanged.
 *
 * @example
 * withMcpHint(new EngramError('EMPTY_INPUT', 'Content is empty'), 'memory_write').hint;
 * // "Give the memory's text in content."
 */
export function withMcpHint(error: EngramError, tool: string, served: ServedNames = EVERY_TOOL): EngramError {
  const rule = RULES.find((r) => r.applies(error, tool, served));
  if (rule === undefined) return error;
  const hint = rule.hint(error, tool, served);
  return new EngramError(error.code, error.message, { hint, details: { ...error.details }, cause: error.cause });
}
