/** Text view of `engram init`: where the store is, how it was named, and its tokenizer. */
import type { Palette } from './palette.js';

/** What `engram init` made (or found already made). */
export interface InitResult {
  /** The `.engram` directory, or the database file for a store elsewhere. */
  path: string;
  db: string;
  /** DIR (or the working directory), `--db`, or `ENGRAM_DB`. */
  source: 'dir' | 'flag' | 'env';
  created: boolean;
  files_created: string[];
  fts_tokenizer: string;
  fts_tokenizer_spec: string;
}

/** How `init` was told where the store goes, when not by DIR. */
const INIT_SOURCE: Record<InitResult['source'], string> = { dir: '', flag: ' (--db)', env: ' (ENGRAM_DB)' };

export function initView(d: InitResult, p: Palette): string {
  return `${d.created ? 'Initialised' : 'Already initialised'} ${p.bold(d.path)}${INIT_SOURCE[d.source]}\n${p.dim('tokenizer')} ${d.fts_tokenizer}`;
}
