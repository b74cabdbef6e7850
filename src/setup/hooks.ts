/**
 * The hook entries `engram setup` adds to a client that runs commands on session events (Claude
 * Code's settings.json, Codex's hooks.json: the same `"hooks": { Event: [ { hooks: [ { type,
 * command, timeout } ] } ] }` shape). Each entry runs `engram hook EVENT`; the prompt hook only on
 * request (`--prompt-hook`), as it runs on every prompt.
 */
import { isDeepStrictEqual } from 'node:util';
import { HOOK_EVENTS, type HookEvent } from './hook-events.js';
import { appendElement, type JsonPath, jsonValue, removeMember } from './json-edit.js';
import type { JsonValue } from './server-entry.js';
import { shellWord } from '../util/shell-word.js';

export { HOOK_EVENTS, type HookEvent };

/** A client's name for each event it has, and the seconds it lets the hook run. */
export type HookTable = Partial<Record<HookEvent, { name: string; timeout: number }>>;

export const CLAUDE_CODE_HOOKS: HookTable = Object.freeze({
  'session-start': { name: 'SessionStart', timeout: 10 },
  'prompt-submit': { name: 'UserPromptSubmit', timeout: 5 },
  'stop': { name: 'Stop', timeout: 30 },
  'pre-compact': { name: 'PreCompact', timeout: 30 },
  'session-end': { name: 'SessionEnd', timeout: 30 },
});

/** Codex has no session-end event. */
export const CODEX_HOOKS: HookTable = Object.freeze({
  'session-start': { name: 'SessionStart', timeout: 10 },
  'prompt-submit': { name: 'UserPromptSubmit', timeout: 5 },
  'stop': { name: 'Stop', timeout: 30 },
  'pre-compact': { name: 'PreCompact', timeout: 30 },
});

/** The command line of a hook: `engram hook stop`, or `engram --db FILE hook stop` with a pinned store. */
export function hookCommand(event: HookEvent, db: string | undefined): string {
  return ['engram', ...(db === undefined || db === '' ? [] : ['--db', shellWord(db)]), 'hook', event].join(' ');
}

/** True when `command` is an `engram hook EVENT` line (whatever its store). */
function isEngramHook(command: unknown, event: HookEvent): boolean {
  return typeof command === 'string' && command.startsWith('engram ') && command.endsWith(` hook ${event}`);
}

interface HookGroup {
  hooks?: { command?: unknown }[];
}

/** The groups listed for a client event, as the file holds them. */
function groupsOf(text: string, name: string): HookGroup[] {
  const hooks = (jsonValue(text) as { hooks?: Record<string, unknown> }).hooks;
  const groups = typeof hooks === 'object' && hooks !== null ? hooks[name] : undefined;
  return Array.isArray(groups) ? (groups as HookGroup[]) : [];
}

/** The events setup installs: the prompt hook only when asked for. */
export function wantedEvents(table: HookTable, promptHook: boolean): HookEvent[] {
  return HOOK_EVENTS.filter((e) => table[e] !== undefined && (promptHook || e !== 'prompt-submit'));
}

/** `text` with an entry for every wanted event that has none yet (any engram hook for it counts). */
export function addHooks(
  text: string,
  table: HookTable,
  events: readonly HookEvent[],
  db: string | undefined,
  file: string,
): string {
  let next = text;
  for (const event of events) {
    const spec = table[event];
    if (spec === undefined) continue;
    if (groupsOf(next, spec.name).some((g) => g.hooks?.some((h) => isEngramHook(h.command, event)))) continue;
    const group: JsonValue = { hooks: [{ type: 'command', command: hookCommand(event, db), timeout: spec.timeout }] };
    next = appendElement(next, ['hooks', spec.name], group, file);
  }
  return next;
}

/**
 * `text` without engram's hook entries, in the reverse order of {@link addHooks} so that each
 * removal undoes one insertion: a group holding only engram's hook goes, a group shared with
 * other hooks loses engram's hook only. An event list, and `hooks` itself, emptied by this and
 * absent from `original` (the file before setup) go too.
 */
export function removeHooks(text: string, table: HookTable, original: unknown): string {
  let next = text;
  const had = (path: JsonPath) => hasPath(original, path);
  for (const event of [...HOOK_EVENTS].reverse()) {
    const spec = table[event];
    if (spec === undefined) continue;
    const groups = groupsOf(next, spec.name);
    for (let g = groups.length - 1; g >= 0; g--) {
      const hooks = groups[g]?.hooks ?? [];
      for (let h = hooks.length - 1; h >= 0; h--) {
        if (!isEngramHook(hooks[h]?.command, event)) continue;
        next = removeMember(next, hooks.length === 1 ? ['hooks', spec.name, g] : ['hooks', spec.name, g, 'hooks', h]);
      }
    }
    if (groupsOf(next, spec.name).length === 0 && isEmptyAt(next, ['hooks', spec.name]) && !had(['hooks', spec.name])) {
      next = removeMember(next, ['hooks', spec.name]);
    }
  }
  if (isEmptyAt(next, ['hooks']) && !had(['hooks'])) next = removeMember(next, ['hooks']);
  return next;
}

/** True when `value` holds something at `path`. */
export function hasPath(value: unknown, path: JsonPath): boolean {
  let node = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !(key in node)) return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return true;
}

/** True when the file holds an empty object or list at `path`. */
export function isEmptyAt(text: string, path: JsonPath): boolean {
  let node: unknown = jsonValue(text);
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !(key in node)) return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return isDeepStrictEqual(node, {}) || isDeepStrictEqual(node, []);
}
