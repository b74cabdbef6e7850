/**
 * Writes a setup or teardown plan: a copy of each existing file beside it before its first change
 * (`FILE.engram-backup`, never overwritten), the new contents, and on teardown the removal of
 * files setup created, of the folders that held only them, and of backups the files are back to.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
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
      ? f.backup && !existsSync(backupPath) ? backupPath : undefined
      : plan.dropBackups.includes(backupPath) ? backupPath : undefined;
    return { path: f.path, action, parts: f.parts, ...(backup === undefined ? {} : { backup }) };
  });
}

/** The unified diff of every change in the plan ('' when nothing changes). */
export function planDiff(plan: SetupPlan): string {
  return plan.files.map((f) => unifiedDiff(f.path, f.before, f.after)).join('');
}

/** Removes `dir` and its parents while they are empty, up to (not including) `root`. */
function pruneEmpty(dir: string, root: string): void {
  let current = dir;
  while (current !== root && !relative(root, current).startsWith('..') && !relative(root, current).startsWith(sep)) {
    if (!existsSync(current) || readdirSync(current).length > 0) return;
    rmdirSync(current);
    current = dirname(current);
  }
}

/**
 * Writes the plan. `root` bounds the folders teardown may remove (the project, or the home
 * directory).
 */
export function applyPlan(plan: SetupPlan, root: string): FileReport[] {
  const reports = describePlan(plan);
  for (const [i, f] of plan.files.entries()) {
    const report = reports[i];
    if (report === undefined || report.action === 'unchanged') continue;
    if (report.backup !== undefined && plan.action === 'setup') copyFileSync(f.path, report.backup);
    if (f.after === undefined) {
      rmSync(f.path, { force: true });
      pruneEmpty(dirname(f.path), root);
    } else {
      mkdirSync(dirname(f.path), { recursive: true });
      writeFileSync(f.path, f.after);
    }
  }
  for (const backup of plan.dropBackups) rmSync(backup, { force: true });
  return reports;
}
