/**
 * Source resolution for `ingest`: files, directories (recursive, honouring `.gitignore`, always
 * skipping `node_modules` and every dotfile or dot-directory such as `.git`, `.env`, `.DS_Store`:
 * they are configuration, not content), glob patterns and `-` for stdin, narrowed by
 * `--include` / `--exclude` globs. Anything that cannot be used becomes an entry with a reason,
 * never an exception: the run goes on. A file named explicitly is taken as named, dotfile or not.
 *
 * A symlink met while walking a directory (file or directory link) whose real path is outside
 * that directory is not followed: it becomes a skipped entry with its reason, unless
 * `followSymlinks` says otherwise (a link inside the root is followed; a directory is walked once,
 * so links cannot loop). A file or directory named as a source is taken as named.
 *
 * Every file entry knows its ingest root (the directory walked, a glob's base, a named file's
 * directory): provenance paths are relative to it, and only files found by walking a directory
 * named as a source are `walked` (a re-ingest of that directory prunes the ones gone since).
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { ExtractError } from './extract/index.js';
import { MAX_FILE_BYTES } from './formats.js';

export interface FileEntry {
  kind: 'file';
  path: string;
  display: string;
  size: number;
  /** Last modification time (ms since the epoch). */
  mtimeMs: number;
  /** The ingest root: the directory walked, a glob's base, or a named file's directory. */
  root: string;
  /** True when the file came from walking the directory `root` (re-ingest prunes there). */
  walked: boolean;
}

export type SourceEntry
  = | FileEntry
    | { kind: 'stdin'; display: '-' }
    | { kind: 'problem'; display: string; reason: string; skip?: 'symlink-outside' };

export interface SourceOptions {
  cwd: string;
  include?: readonly string[];
  exclude?: readonly string[];
  /** Follow symlinks whose target is outside the directory walked (default: skipped, reported). */
  followSymlinks?: boolean;
}

const ALWAYS_SKIPPED = new Set(['node_modules']);

/** Dotfiles and dot-directories (`.git`, `.env`, `.DS_Store`, `.engram`) are never content. */
function isSkippedName(name: string): boolean {
  return name.startsWith('.') || ALWAYS_SKIPPED.has(name);
}

function errnoReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'ELOOP') return 'symlink loop';
  return `cannot read (${code ?? (error as Error).message})`;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

interface Matchers {
  include?: picomatch.Matcher;
  exclude?: picomatch.Matcher;
}

function matcher(globs: readonly string[] | undefined): picomatch.Matcher | undefined {
  if (globs === undefined || globs.length === 0) return undefined;
  // A pattern without a slash matches the file name anywhere (like .gitignore).
  return picomatch([...globs], { dot: true, basename: globs.every((g) => !g.includes('/')) });
}

function accepted(relativePath: string, matchers: Matchers): boolean {
  if (matchers.include && !matchers.include(relativePath)) return false;
  return !(matchers.exclude && matchers.exclude(relativePath));
}

function gitignoreOf(dir: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Files under `root` (sorted), with per-directory `.gitignore` rules applied on the way down. */
function walk(
  root: string,
  options: SourceOptions,
  matchers: Matchers,
  filter?: (rel: string) => boolean,
): SourceEntry[] {
  const walked = filter === undefined;
  const out: SourceEntry[] = [];
  const seen = new Set<string>();
  const rootReal = realOrSelf(root);
  const visit = (dir: string, rules: { base: string; ig: Ignore }[]) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (error) {
      out.push({ kind: 'problem', display: toPosix(relative(options.cwd, dir)) || '.', reason: errnoReason(error) });
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      out.push({ kind: 'problem', display: toPosix(relative(options.cwd, dir)) || '.', reason: errnoReason(error) });
      return;
    }
    const own = gitignoreOf(dir);
    const active = own ? [...rules, { base: dir, ig: own }] : rules;
    for (const name of names) {
      if (isSkippedName(name)) continue;
      const path = join(dir, name);
      let isDir = false;
      let size = 0;
      let mtimeMs = 0;
      try {
        const link = lstatSync(path);
        const target = link.isSymbolicLink() ? statSync(path) : link;
        isDir = target.isDirectory();
        size = target.size;
        mtimeMs = target.mtimeMs;
        if (!isDir && !target.isFile()) continue;
        if (link.isSymbolicLink() && options.followSymlinks !== true) {
          const real = realpathSync(path);
          if (!isInside(rootReal, real)) {
            const display = toPosix(relative(options.cwd, path));
            const reason = `symlink to ${real}, outside the ingest root (--follow-symlinks to ingest it)`;
            out.push({ kind: 'problem', display, reason, skip: 'symlink-outside' });
            continue;
          }
        }
      } catch (error) {
        const reason = errnoReason(error);
        out.push({
          kind: 'problem',
          display: toPosix(relative(options.cwd, path)),
          reason: reason === 'no such file or directory' ? 'broken symlink' : reason,
        });
        continue;
      }
      const ignored = active.some(({ base, ig }) => {
        const rel = toPosix(relative(base, path));
        return ig.ignores(isDir ? `${rel}/` : rel);
      });
      if (ignored) continue;
      if (isDir) {
        visit(path, active);
        continue;
      }
      const rel = toPosix(relative(root, path));
      if (!accepted(rel, matchers) || (filter && !filter(rel))) continue;
      out.push({ kind: 'file', path, display: toPosix(relative(options.cwd, path)), size, mtimeMs, root, walked });
    }
  };
  visit(root, ancestorRules(root));
  return out;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** True when `path` is `dir` or below it (both real paths). */
function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `.gitignore` rules of the directories above `root`, up to its git work tree's top. */
function ancestorRules(root: string): { base: string; ig: Ignore }[] {
  if (existsSync(join(root, '.git'))) return [];
  const chain: string[] = [];
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    chain.push(dir);
    if (existsSync(join(dir, '.git'))) {
      return chain
        .reverse()
        .flatMap((base) => {
          const ig = gitignoreOf(base);
          return ig ? [{ base, ig }] : [];
        });
    }
    if (dirname(dir) === dir) return [];
  }
}

export interface ResolvedSources {
  entries: SourceEntry[];
  /** The directories named as sources (absolute): where files gone since the last ingest are pruned. */
  roots: string[];
}

/**
 * Resolves the SOURCE arguments to entries, in argument order (directories sorted inside); a
 * file reached twice is listed once.
 *
 * @example
 * resolveSources(['docs', 'src/**\/*.ts', '-'], { cwd: process.cwd(), exclude: ['*.test.ts'] }).entries;
 */
export function resolveSources(sources: readonly string[], options: SourceOptions): ResolvedSources {
  const matchers = { include: matcher(options.include), exclude: matcher(options.exclude) };
  const entries: SourceEntry[] = [];
  const roots: string[] = [];
  for (const source of sources) {
    if (source === '-') {
      entries.push({ kind: 'stdin', display: '-' });
      continue;
    }
    const path = resolve(options.cwd, source);
    let stats: ReturnType<typeof statSync> | undefined;
    try {
      stats = statSync(path);
    } catch (error) {
      const scan = picomatch.scan(source);
      if (scan.isGlob) {
        const base = resolve(options.cwd, scan.base || '.');
        const glob = picomatch(scan.glob, { dot: false });
        const found = existsSync(base) ? walk(base, options, matchers, (rel) => glob(rel)) : [];
        if (found.some((e) => e.kind === 'file')) entries.push(...found);
        else entries.push({ kind: 'problem', display: source, reason: 'no file matches this pattern' });
        continue;
      }
      let reason = errnoReason(error);
      try {
        if (lstatSync(path).isSymbolicLink()) reason = 'broken symlink';
      } catch {
        // not a link either: keep the stat error
      }
      entries.push({ kind: 'problem', display: source, reason });
      continue;
    }
    if (stats.isDirectory()) {
      if (!roots.includes(path)) roots.push(path);
      entries.push(...walk(path, options, matchers));
    } else if (stats.isFile()) {
      const display = toPosix(relative(options.cwd, path)) || source;
      entries.push({ kind: 'file', path, display, size: stats.size, mtimeMs: stats.mtimeMs, root: dirname(path), walked: false });
    } else {
      entries.push({ kind: 'problem', display: source, reason: 'not a regular file' });
    }
  }
  const seen = new Set<string>();
  const unique = entries.filter((e) => {
    if (e.kind !== 'file') return true;
    if (seen.has(e.path)) return false;
    seen.add(e.path);
    return true;
  });
  return { entries: unique, roots };
}

/** The bytes of a file or standard input entry; an ExtractError says why there are none. */
export async function readEntry(entry: SourceEntry, readStdin?: () => Promise<Uint8Array>): Promise<Uint8Array> {
  if (entry.kind === 'stdin') {
    if (readStdin === undefined) throw new ExtractError('no standard input');
    return readStdin();
  }
  if (entry.kind !== 'file') throw new ExtractError(entry.reason);
  if (entry.size > MAX_FILE_BYTES) throw new ExtractError('larger than 256 MB');
  try {
    // Read at once: the promise API's chunked reads cost more than the read itself for small files.
    return readFileSync(entry.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExtractError(code === 'EACCES' || code === 'EPERM' ? 'permission denied' : `cannot read (${code ?? 'error'})`);
  }
}
