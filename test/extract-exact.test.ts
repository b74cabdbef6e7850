/**
 * Exact extraction, through ingest into a real store: every HTML entity decoded in its own case,
 * table cells separated by tabs with one row per line, spreadsheet cells (XLSX, ODS) at their
 * column, and dates as ISO dates.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { openEngram } from '../src/index.js';
import { tempDir } from './helpers.js';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function zip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

/** Ingests `files` into a fresh store and returns each file's text, its chunks joined. */
type Files = Record<string, string | Uint8Array>;

async function extracted(t: Parameters<typeof tempDir>[0], files: Files): Promise<Record<string, string>> {
  const dir = tempDir(t);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const engram = await openEngram({ path: join(dir, 'm.db') });
  t.after(() => engram.close());
  const report = await engram.ingest({ sources: Object.keys(files), cwd: dir });
  assert.deepEqual(report.files.filter((f) => f.status !== 'ingested'), []);
  const { items } = await engram.list({ limit: 1000 });
  const out: Record<string, string> = {};
  for (const name of Object.keys(files)) {
    out[name] = items
      .filter((i) => i.source === name)
      .sort((a, b) => Number(a.provenance?.chunk_index) - Number(b.provenance?.chunk_index))
      .map((i) => i.content)
      .join('');
  }
  return out;
}

test('HTML: every named and numeric entity decoded, case kept; table cells by tabs, rows on lines', async (t) => {
  const html = `<!doctype html><html><head><title>Caf&eacute; &amp; co</title></head><body>
<p>Se&ntilde;or &Oacute;scar &oacute; &rarr; na&iuml;ve &#x2014; &#8212; &Eacute;T&Eacute; &hellip; 5&nbsp;km &lt;b&gt; &amp;amp;</p>
<table>
  <caption>Staff</caption>
  <thead><tr><th>Name</th><th>Role</th><th>Team</th></tr></thead>
  <tbody>
    <tr>
      <td> Ada </td>
      <td></td>
      <td>Core<br>Platform</td>
    </tr>
    <tr><td>Lin</td><td><p>Ops &amp; SRE</p></td><td></td></tr>
  </tbody>
</table>
<p>After the table.</p>
</body></html>`;
  const text = (await extracted(t, { 'page.html': html }))['page.html'];
  assert.equal(
    text,
    'Señor Óscar ó → naïve — — ÉTÉ … 5 km <b> &amp;\n\nStaff\nName\tRole\tTeam\nAda\t\tCore Platform\nLin\tOps & SRE\n\nAfter the table.\n',
  );
});

test('XLSX: cells at their reference, empty columns kept, date formats as ISO dates, strings exact', async (t) => {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const book = zip({
    'xl/workbook.xml': `${XML}<workbook ${ns}><sheets><sheet name="Q&amp;A" sheetId="1"/></sheets></workbook>`,
    'xl/styles.xml': `${XML}<styleSheet ${ns}><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd hh:mm"/></numFmts>`
      + '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="4"/></cellXfs></styleSheet>',
    'xl/sharedStrings.xml': `${XML}<sst ${ns}><si><t>a</t></si><si/><si><r><t>Ri</t></r><r><rPr><b/></rPr><t xml:space="preserve">ch &amp; bold</t></r><rPh><t>ふりがな</t></rPh></si><si><t>c</t></si></sst>`,
    'xl/worksheets/sheet1.xml': `${XML}<worksheet ${ns}><sheetData>`
      + '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>3</v></c></row>'
      + '<row r="2"><c r="A2" s="1"><v>45366</v></c><c r="B2" s="2"><v>45366.4375</v></c><c r="C2" s="3"><v>1200</v></c><c r="E2" t="b"><v>1</v></c></row>'
      + '<row r="3"/>'
      + '<row r="4"><c r="B4" t="inlineStr"><is><t>x &lt; y</t></is></c><c r="D4" t="s"><v>2</v></c><c r="F4" t="s"><v>1</v></c></row>'
      + '</sheetData></worksheet>',
  });
  const text = (await extracted(t, { 'book.xlsx': book }))['book.xlsx'];
  assert.equal(text, '## Q&A\na\t\tc\n2024-03-15\t2024-03-15T10:30:00\t1200\t\tTRUE\n\tx < y\t\tRich & bold\n');
});

test('ODS: repeated and empty cells keep their columns, repeated rows, dates as ISO dates', async (t) => {
  const ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
  const cell = (text: string, attributes = '') => `<table:table-cell office:value-type="string"${attributes}><text:p>${text}</text:p></table:table-cell>`;
  const rows = [
    `<table:table-row>${cell('a')}<table:table-cell/>${cell('c')}<table:table-cell table:number-columns-repeated="1020"/></table:table-row>`,
    `<table:table-row><table:table-cell table:number-columns-repeated="2"/>${cell('x', ' table:number-columns-repeated="3"')}</table:table-row>`,
    '<table:table-row><table:table-cell office:value-type="date" office:date-value="2024-03-15"><text:p>15/03/24</text:p></table:table-cell>'
    + '<table:table-cell office:value-type="date" office:date-value="2024-03-15T10:30:00"><text:p>15/03/24 10:30</text:p></table:table-cell>'
    + '<table:table-cell office:value-type="float" office:value="1200"><text:p>1,200.00</text:p></table:table-cell></table:table-row>',
    `<table:table-row table:number-rows-repeated="2">${cell('same')}</table:table-row>`,
    `<table:table-row>${cell('Ca&amp;fé<text:s text:c="2"/>end')}<table:covered-table-cell/>${cell('two<text:line-break/>lines')}</table:table-row>`,
    '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>',
  ];
  const ods = zip({
    'mimetype': 'application/vnd.oasis.opendocument.spreadsheet',
    'content.xml': `${XML}<office:document-content ${ns}><office:body><office:spreadsheet><table:table table:name="Plan">${rows.join('')}</table:table></office:spreadsheet></office:body></office:document-content>`,
  });
  const text = (await extracted(t, { 'plan.ods': ods }))['plan.ods'];
  assert.equal(text, '## Plan\na\t\tc\n\t\tx\tx\tx\n2024-03-15\t2024-03-15T10:30:00\t1,200.00\nsame\nsame\nCa&fé  end\t\ttwo lines\n');
});
