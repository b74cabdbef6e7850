/**
 * RFC 3339 date-times (section 5.6) as engram stores them: canonical UTC with milliseconds
 * (`2024-03-01T08:00:00.000Z`). Accepted: `T`, `t` or a space between date and time (the space is
 * the RFC's own readability note), `Z`, `z` or a `±HH:MM` offset (`-00:00` is UTC), and a fraction
 * of any length, cut to milliseconds (never rounded up into the next second). A leap second
 * (`:60`) becomes the first instant of the next minute. Date-only text and out-of-range fields are
 * refused; so are instants outside years 0000–9999, which the canonical form cannot write.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (DAYS[month - 1] ?? 0);
}

/**
 * The canonical UTC form of an RFC 3339 date-time, or undefined when `text` is not one.
 *
 * @example
 * parseRfc3339('2024-03-01T10:00:00+02:00'); // '2024-03-01T08:00:00.000Z'
 * parseRfc3339('2024-03-01t10:00:00.123456z'); // '2024-03-01T10:00:00.123Z'
 */
export function parseRfc3339(text: string): string | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map(Number);
  const fraction = Number(((m[7] ?? '') + '000').slice(0, 3));
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0–99 as they are.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, fraction);
  const offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const iso = new Date(date.getTime() - offset).toISOString();
  return /^\d{4}-/.test(iso) ? iso : undefined;
}
