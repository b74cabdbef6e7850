import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnOf, excelDate, formatKind, rowLine } from './spreadsheet-cells.js';

test('cell references give their column; anything else gives none', () => {
  assert.deepEqual(['A1', 'C7', 'Z1', 'AA3', '$B$2', 'XFD1', 'c5'].map(columnOf), [0, 2, 25, 26, 1, 16_383, 2]);
  assert.deepEqual(['', '1A', 'XFE1', 'ABCD1', 'A-1'].map(columnOf), [undefined, undefined, undefined, undefined, undefined]);
});

test('rows keep empty columns and drop trailing ones; a line break in a cell stays on the row', () => {
  assert.equal(rowLine(new Map([[0, 'a'], [2, 'c']])), 'a\t\tc');
  assert.equal(rowLine(new Map([[2, 'c'], [0, 'a'], [5, '']])), 'a\t\tc');
  assert.equal(rowLine(new Map([[1, 'two\nlines']])), '\ttwo lines');
  assert.equal(rowLine(new Map()), '');
});

test('Excel serial dates as ISO: 1900 and 1904 systems, times, the phantom 1900-02-29', () => {
  assert.equal(excelDate(45366, 'date', false), '2024-03-15');
  assert.equal(excelDate(45366.4375, 'datetime', false), '2024-03-15T10:30:00');
  assert.equal(excelDate(0.75, 'time', false), '18:00:00');
  assert.equal(excelDate(1, 'date', false), '1900-01-01');
  assert.equal(excelDate(59, 'date', false), '1900-02-28');
  assert.equal(excelDate(61, 'date', false), '1900-03-01');
  assert.equal(excelDate(43904, 'date', true), '2024-03-15');
  assert.equal(excelDate(-1, 'date', false), undefined);
  assert.equal(excelDate(Number.NaN, 'date', false), undefined);
});

test('number formats: built-in and custom dates, times, and plain numbers', () => {
  assert.deepEqual([14, 22, 18, 0, 2, 49].map((id) => formatKind(id, undefined)), ['date', 'datetime', 'time', undefined, undefined, undefined]);
  const custom = ['yyyy-mm-dd', 'dd/mm/yyyy hh:mm', 'h:mm:ss', 'mm:ss', 'mmm yy', '[$-409]d-mmm', '#,##0.00', '0.0%', '"day "0', '[Red]0.00', 'General'];
  assert.deepEqual(custom.map((code) => formatKind(164, code)), ['date', 'datetime', 'time', 'time', 'date', 'date', undefined, undefined, undefined, undefined, undefined]);
});
