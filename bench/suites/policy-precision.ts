/**
 * Precision suite: the write policy over every `.js`, `.ts`, `.json` and `.md` file of the
 * project's own node_modules (real files written by thousands of authors, almost none of them
 * secrets or injections). Reports files, texts checked, refusals and quarantines per rule and the
 * time taken; the first refused and quarantined excerpts go to stderr so a reader can tell true
 * secrets from false positives.
 *
 * `BENCH_PRECISION_MODE=files` (default) checks each whole file with `{ ignoreSize: true }`, as
 * the policy sees an input before anything is split; `chunks` splits each file the way `ingest`
 * does (chunkText, 2,000 characters, code-aware for .js and .ts) and checks every chunk.
 * `BENCH_PRECISION_SHOW=N` sets how many excerpts are printed (default 60). The total row counts
 * texts refused and quarantined; a rule's row counts its matches and the files they are in.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkText } from '../../src/ingest/chunk.js';
import { checkPolicy, type PolicyVerdict } from '../../src/index.js';
import { quantile, type Row } from '../stats.js';

const EXTENSIONS = new Set(['.js', '.ts', '.json', '.md']);
/** The chunk size ingest uses by default (the policy's content limit). */
const CHUNK_CHARS = 2000;

/** Every file under `root` with one of the extensions, following symbolic links once (no cycles). */
export function walkFiles(root: string): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (dir: string) => {
    const real = realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const linked = entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
      const isDir = entry.isDirectory() || linked;
      if (isDir) visit(path);
      else if (EXTENSIONS.has(extname(entry.name)) && (entry.isFile() || entry.isSymbolicLink())) files.push(path);
    }
  };
  visit(root);
  return files.sort();
}

interface Tally {
  refused: number;
  quarantined: number;
  files: Set<string>;
}

/** The texts the policy sees for one file: the whole file, or ingest's chunks. */
function textsOf(path: string, text: string, mode: 'files' | 'chunks'): string[] {
  if (mode === 'files') return [text];
  const ext = extname(path);
  return chunkText(text, { maxChars: CHUNK_CHARS, code: ext === '.js' || ext === '.ts' }).map((c) => c.content);
}

/** Runs the policy over every file under `root`; rows per rule plus a total row. */
export function precisionSuite(root = fileURLToPath(new URL('../../../node_modules/', import.meta.url))): Row[] {
  const mode = process.env.BENCH_PRECISION_MODE === 'chunks' ? 'chunks' : 'files';
  const show = Number(process.env.BENCH_PRECISION_SHOW ?? 60);
  const suite = `precision (node_modules, ${mode})`;
  const files = walkFiles(root);
  const rules = new Map<string, Tally>();
  const perFile: number[] = [];
  let texts = 0;
  let bytes = 0;
  let refused = 0;
  let quarantined = 0;
  let shown = 0;
  let slowest = { path: '', ms: 0 };
  const flaggedFiles = new Set<string>();
  const started = process.hrtime.bigint();
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    bytes += Buffer.byteLength(text);
    const fileStart = process.hrtime.bigint();
    for (const piece of textsOf(path, text, mode)) {
      texts += 1;
      const verdict: PolicyVerdict = checkPolicy({ content: piece }, { ignoreSize: true });
      if (verdict.verdict === 'accept') continue;
      if (verdict.verdict === 'reject') refused += 1;
      else quarantined += 1;
      flaggedFiles.add(path);
      for (const match of verdict.matches) {
        const tally = rules.get(match.rule) ?? { refused: 0, quarantined: 0, files: new Set<string>() };
        if (match.action === 'reject') tally.refused += 1;
        else tally.quarantined += 1;
        tally.files.add(path);
        rules.set(match.rule, tally);
        if (shown < show) {
          shown += 1;
          const excerpt = match.excerpt.replace(/\s+/g, ' ').slice(0, 160);
          process.stderr.write(`[${verdict.verdict}] ${match.rule} ${relative(root, path)}: ${excerpt}\n`);
        }
      }
    }
    const ms = Number(process.hrtime.bigint() - fileStart) / 1e6;
    perFile.push(ms);
    if (ms > slowest.ms) slowest = { path, ms };
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rows: Row[] = [...rules.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, t]) => ({ suite, case: rule, refused: t.refused, quarantined: t.quarantined, files: t.files.size }));
  rows.unshift({
    suite,
    'case': 'total',
    'refused': refused,
    'quarantined': quarantined,
    'files': files.length,
    'flagged files': flaggedFiles.size,
    'texts': texts,
    'MB': Math.round(bytes / 1e5) / 10,
    'seconds': Math.round(seconds * 10) / 10,
    'median ms/file': Math.round(quantile(perFile, 0.5) * 1000) / 1000,
    'max ms/file': Math.round(slowest.ms),
    'slowest file': relative(root, slowest.path),
  });
  return rows;
}
