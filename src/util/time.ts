/**
 * Time helpers: every stored timestamp is UTC ISO-8601 with milliseconds
 * (`2026-11-22T10:00:00.000Z`), so string order is time order.
 */

/** A source of the current time, injectable for tests. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

const DURATION = /^(\d+)\s*(s|m|h|d|w)$/i;
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Parses an absolute date (`2026-11-01`, any ISO-8601 form) or a duration relative to `now`
 * (`90m`, `24h`, `7d`, `2w`) into a canonical UTC ISO-8601 string; `direction` says whether a
 * duration points to the past (`since 7d`) or the future (`expires in 72h`).
 * Returns undefined when the text is neither.
 */
export function parseTime(
  text: string,
  now: Date,
  direction: 'past' | 'future',
): string | undefined {
  const trimmed = text.trim();
  const duration = DURATION.exec(trimmed);
  if (duration) {
    const ms = Number(duration[1]) * (UNIT_MS[(duration[2] ?? 's').toLowerCase()] ?? 0);
    return new Date(now.getTime() + (direction === 'past' ? -ms : ms)).toISOString();
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return undefined;
  const date = new Date(trimmed);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** True for a canonical engram timestamp (what `toISOString()` produces). */
export function isCanonicalTimestamp(text: string): boolean {
  const date = new Date(text);
  return !Number.isNaN(date.getTime()) && date.toISOString() === text;
}

/** `hours` after the canonical timestamp `at`, in canonical form. */
export function addHours(at: string, hours: number): string {
  return new Date(new Date(at).getTime() + hours * UNIT_MS.h!).toISOString();
}

/**
 * The longest delay a Node timer keeps (about 24.8 days): a longer one fires at once, with a
 * warning. Timeouts given by users are capped to it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
