/** engram's hook events: what `engram hook EVENT` answers and `engram setup` installs. */
export const HOOK_EVENTS = ['session-start', 'prompt-submit', 'stop', 'pre-compact', 'session-end'] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

/** How long each event may take before the hook gives up (exit 0, nothing said), in ms. */
export const HOOK_BOUNDS_MS: Readonly<Record<HookEvent, number>> = {
  'session-start': 3000,
  'prompt-submit': 2000,
  'stop': 20_000,
  'pre-compact': 20_000,
  'session-end': 20_000,
};
