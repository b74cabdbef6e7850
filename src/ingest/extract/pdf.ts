/** PDF text with unpdf (pdf.js, pure JavaScript): pages in order, separated by a blank line. */
import { ExtractError, type Extracted } from './index.js';

export async function extractPdf(bytes: Uint8Array): Promise<Extracted> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  let pages: string[];
  try {
    // verbosity 0: pdf.js would otherwise print warnings on stdout.
    const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    pages = (await extractText(document, { mergePages: false })).text;
    await document.destroy();
  } catch (error) {
    const name = (error as Error).name;
    const reason = name === 'PasswordException' ? 'encrypted PDF (password required)' : `corrupt PDF (${(error as Error).message})`;
    throw new ExtractError(reason);
  }
  const text = pages.map((p) => p.trim()).filter((p) => p !== '').join('\n\n');
  return text === ''
    ? { text: '', note: 'no text layer (a scanned PDF needs OCR first)' }
    : { text: `${text}\n` };
}
