/**
 * Extraction of plain text from a file's bytes, one module per format family, each loaded only
 * when a file of that family is met (the PDF and zip readers are not small).
 */
import type { Family } from '../formats.js';

export interface Extracted {
  text: string;
  /** A title found in the document itself (HTML <title>, first heading). */
  title?: string;
  /** Something the report should say about the extraction (a fallback encoding, …). */
  note?: string;
}

/** A file that cannot be read as its format; the message is the per-file reason. */
export class ExtractError extends Error {}

export async function extract(family: Family, ext: string, bytes: Uint8Array): Promise<Extracted> {
  switch (family) {
    case 'text':
    case 'code':
      return (await import('./text.js')).extractText(bytes);
    case 'markup':
      return (await import('./markup.js')).extractMarkup(bytes, ext);
    case 'office':
      return (await import('./office.js')).extractOffice(bytes, ext);
    case 'opendocument':
      return (await import('./opendocument.js')).extractOpenDocument(bytes, ext);
    case 'pdf':
      return (await import('./pdf.js')).extractPdf(bytes);
  }
}
