/**
 * Spreadsheet helpers shared by the XLSX and ODS readers: a cell reference's column, rows of cells
 * placed by column as tab-separated lines, and Excel serial dates as ISO dates. Pure.
 */

/** The largest column a sheet can have (XFD in Excel); a bigger reference is not believed. */
export const MAX_COLUMNS = 16_384;

/** The 0-based column of a cell reference (`A1` → 0, `C7` → 2, `AA3` → 26); undefined if none. */
export function columnOf(reference: string): number | undefined {
  const letters = /^\$?([A-Z]{1,3})\$?\d*$/i.exec(reference)?.[1]?.toUpperCase();
  if (letters === undefined) return undefined;
  let column = 0;
  for (const letter of letters) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column - 1 < MAX_COLUMNS ? column - 1 : undefined;
}

/** A row as one line: each value at its column, empty columns kept, trailing empties dropped. */
export function rowLine(cells: ReadonlyMap<number, string>): string {
  let last = -1;
  for (const [column, value] of cells) if (value !== '' && column > last) last = column;
  const out: string[] = [];
  // A cell's own line breaks would start a new row: inside a cell they become spaces.
  for (let column = 0; column <= last; column++) out.push((cells.get(column) ?? '').replace(/\s*[\r\n]+\s*/g, ' '));
  return out.join('\t');
}

const DAY_MS = 86_400_000;
/** Day 0 of the 1900 date system is 1899-12-30 once Excel's phantom 1900-02-29 is accounted for. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * An Excel serial date as ISO: `2024-03-15` for a date, `2024-03-15T10:30:00` for a date with a
 * time, `10:30:00` for a time. Undefined for a serial no date can have.
 *
 * @example
 * excelDate(45366, 'date', false); // '2024-03-15'
 */
export function excelDate(serial: number, kind: Exclude<DateKind, undefined>, date1904: boolean): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return undefined;
  // Serials before 1900-03-01 count the phantom leap day that Excel kept from Lotus 1-2-3.
  const days = !date1904 && serial < 61 ? serial + 1 : serial;
  const iso = new Date(Math.round(((date1904 ? EPOCH_1904 : EPOCH_1900) + days * DAY_MS) / 1000) * 1000).toISOString();
  if (kind === 'time') return iso.slice(11, 19);
  return kind === 'datetime' ? iso.slice(0, 19) : iso.slice(0, 10);
}

/** Built-in number formats that are dates, dates with a time, or times (ECMA-376 §18.8.30). */
const BUILTIN_DATES = new Set([14, 15, 16, 17, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58]);
const BUILTIN_TIMES = new Set([18, 19, 20, 21, 45, 46, 47]);

export type DateKind = 'date' | 'datetime' | 'time' | undefined;

/** What a number format shows: a date, a date with a time, a time, or neither (a number). */
export function formatKind(id: number, code: string | undefined): DateKind {
  if (code === undefined) {
    return id === 22 ? 'datetime' : BUILTIN_DATES.has(id) ? 'date' : BUILTIN_TIMES.has(id) ? 'time' : undefined;
  }
  // Only the first section counts; quoted text, escapes, colours and locale tags are not letters.
  const bare = (code.split(';')[0] ?? '').replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '').toLowerCase();
  if (bare === 'general') return undefined;
  const hasTime = /[hs]/.test(bare);
  // `m` next to an hour or seconds is minutes, elsewhere a month.
  const hasDate = /[dy]/.test(bare) || /m/.test(bare.replace(/h+[^a-z]*m+|m+[^a-z]*s+/g, ''));
  return hasDate ? (hasTime ? 'datetime' : 'date') : hasTime ? 'time' : undefined;
}
