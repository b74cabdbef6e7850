/**
 * Writes a setup or teardown plan: a copy of each existing file beside it before its first change
 * (`FILE.engram-backup`, never overwritten), the new contents, setup's record of what it added,
 * and on teardown the removal of files setup created, of the folders it created for them, and of
 * backups the files are back to. Every target is checked first (nothing is written when one
 * cannot be), and a write that fails midway undoes the ones before it.
 */
import { accessSync, constants, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EngramError } from '../errors.js';
import { BACKUP_SUFFIX, type Part, type SetupPlan } from './plan.js';
import { unifiedDiff } from './unified-diff.js';

export type FileAction = 'created' | 'updated' | 'removed' | 'unchanged';

/** One file of a plan, as reported (and, unless a dry run, done). */
export interface FileReport {
  path: string;
  action: FileAction;
  parts: Part[];
  /** The backup written now (setup) or removed (teardown). */
  backup?: string;
}

export function fileAction(before: string | undefined, after: string | undefined): FileAction {
  if (before === after) return 'unchanged';
  if (before === undefined) return 'created';
  return after === undefined ? 'removed' : 'updated';
}

/** The plan's files as a report, nothing written. */
export function describePlan(plan: SetupPlan): FileReport[] {
  return plan.files.map((f) => {
    const action = fileAction(f.before, f.after);
    const backupPath = f.path + BACKUP_SUFFIX;
    const backup = plan.action === 'setup'
      ? f.backup && action !== 'unchanged' && !existsSync(backupPath) ? backupPath : undefined
      : plan.dropBackups.includes(backupPath) ? backupPath : undefined;
    return { path: f.path, action, parts: f.parts, ...(backup === undefined ? {} : { backup }) };
  });
}

/** The unified diff of every change in the plan ('' when nothing changes). */
export function planDiff(plan: SetupPlan): string {
  return plan.files.map((f) => unifiedDiff(f.path, f.before, f.after)).join('');
}

function unwritable(path: string, why: string): EngramError {
  return new EngramError('PARAM_ERROR', `Cannot write ${path}: ${why}`, {
    hint: 'Fix that path (permissions, or move what is in the way) and run the command again; nothing was changed.',
    details: { path },
  });
}

/** PARAM_ERROR naming `path` when it cannot be written (or removed): checked before any write. */
function checkWritable(path: string): void {
  if (existsSync(path)) {
    if (!statSync(path).isFile()) throw unwritable(path, 'it is not a regular file');
    try {
      accessSync(path, constants.W_OK);
    } catch {
      throw unwritable(path, 'permission denied');
    }
  }
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) {
    try {
      lstatSync(dir);
      throw unwritable(path, `${dir} is a link to nothing`);
    } catch (error) {
      if (error instanceof EngramError) throw error;
    }
    dir = dirname(dir);
  }
  if (!statSync(dir).isDirectory()) throw unwritable(path, `${dir} is not a folder`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw unwritable(path, `${dir} is not writable`);
  }
}

/** Writes the plan; on a failure, what was written is put back as it was and the error goes on. */
export function applyPlan(plan: SetupPlan): FileReport[] {
  const reports = describePlan(plan);
  const writes = plan.files.filter((_f, i) => reports[i]?.action !== 'unchanged');
  for (const [i, f] of plan.files.entries()) {
    if (reports[i]?.action === 'unchanged') continue;
    checkWritable(f.path);
    if (reports[i]?.backup !== undefined) checkWritable(reports[i].backup);
  }
  if (plan.manifest.before !== plan.manifest.after) checkWritable(plan.manifest.path);
  const undo: (() => void)[] = [];
  /** Sets a file to `text` (undefined: removed), remembering how to put it back. */
  const set = (path: string, text: string | undefined) => {
    const old = existsSync(path) ? readFileSync(path) : undefined;
    undo.push(() => (old === undefined ? rmSync(path, { force: true }) : writeFileSync(path, old)));
    if (text === undefined) {
      rmSync(path, { force: true });
      return;
    }
    const missing: string[] = [];
    for (let dir = dirname(path); !existsSync(dir); dir = dirname(dir)) missing.push(dir);
    mkdirSync(dirname(path), { recursive: true });
    for (const dir of missing) undo.push(() => rmdirSync(dir));
    writeFileSync(path, text);
  };
  try {
    for (const f of writes) {
      const report = reports[plan.files.indexOf(f)];
      if (report?.backup !== undefined && plan.action === 'setup') {
        const backup = report.backup;
        copyFileSync(f.path, backup);
        undo.push(() => rmSync(backup, { force: true }));
      }
      set(f.path, f.after);
    }
    if (plan.manifest.before !== plan.manifest.after) set(plan.manifest.path, plan.manifest.after);
  } catch (error) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // Best effort: the remaining steps still run.
      }
    }
    throw error instanceof EngramError ? error : unwritable(String((error as { path?: unknown }).path ?? 'a file'), (error as Error).message);
  }
  for (const backup of plan.dropBackups) rmSync(backup, { force: true });
  for (const dir of plan.dropDirs) {
    if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  }
  return reports;
}
