/**
 * The process groups of the LLM commands running now, killed with engram. A command runs in a
 * group (and session) of its own so that a timeout can kill all it started; the price is that a
 * Ctrl-C on the terminal no longer reaches it. So while at least one group is alive, SIGINT,
 * SIGTERM and SIGHUP kill every live group first and then take their usual course (the signal is
 * raised again once these listeners are gone, unless the program listens to it itself), and the
 * process's exit kills them too. The temporary directories of `file` mode's prompts are tracked the
 * same way and removed (synchronously) before the signal is raised again or the process exits, so a
 * Ctrl-C leaves no prompt behind. With nothing live, no listener is installed.
 */
import { rmSync } from 'node:fs';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const live = new Set<number>();
const tempDirs = new Set<string>();
let installed = false;

/** Kills the process group `pid` leads; a group already gone is no error. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group.
  }
}

function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Best effort: the process is going anyway.
  }
}

function killAll(): void {
  for (const pid of live) killGroup(pid);
  live.clear();
  for (const dir of tempDirs) removeDir(dir);
  tempDirs.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('exit', killAll);
}

function uninstall(): void {
  installed = false;
  for (const signal of SIGNALS) process.off(signal, onSignal);
  process.off('exit', killAll);
}

function uninstallIfIdle(): void {
  if (live.size === 0 && tempDirs.size === 0) uninstall();
}

/**
 * Tracks the group `pid` leads until the returned function is called, which stops tracking it
 * and, unless told not to (the group was killed already), kills what is left of it.
 *
 * @example
 * const release = trackGroup(child.pid);
 * child.on('close', release);
 */
export function trackGroup(pid: number | undefined): (kill?: boolean) => void {
  if (pid === undefined) return () => {};
  install();
  live.add(pid);
  return (kill = true) => {
    if (kill) killGroup(pid);
    if (live.delete(pid)) uninstallIfIdle();
  };
}

/**
 * Tracks the temporary directory `dir` (a prompt file's) until the returned function is called,
 * which removes it; a signal or the process's exit removes it before that.
 */
export function trackTempDir(dir: string): () => void {
  install();
  tempDirs.add(dir);
  return () => {
    removeDir(dir);
    if (tempDirs.delete(dir)) uninstallIfIdle();
  };
}
