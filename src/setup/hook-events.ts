/** engram's hook events: what `engram hook EVENT` answers and `engram setup` installs. */
export const HOOK_EVENTS = ['session-start', 'prompt-submit', 'stop', 'pre-compact', 'session-end'] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];
