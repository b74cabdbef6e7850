/**
 * The process groups of the LLM commands running now, killed with engram. A command runs in a
 * group (and session) of its own so that a timeout can kill all it started; the price is that a
 * Ctrl-C on the terminal no longer reaches it. So while at least one group is alive, SIGINT,
 * SIGTERM and SIGHUP kill every live group first and then take their usual course (the signal is
 * raised again once these listeners are gone, unless the program listens to it itself), and the
 * process's exit kills them too. With no live group, no listener is installed.
 */

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const live = new Set<number>();

/** Kills the process group `pid` leads; a group already gone is no error. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group.
  }
}

function killAll(): void {
  for (const pid of live) killGroup(pid);
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('exit', killAll);
}

function uninstall(): void {
  for (const signal of SIGNALS) process.off(signal, onSignal);
  process.off('exit', killAll);
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
  if (live.size === 0) install();
  live.add(pid);
  return (kill = true) => {
    if (kill) killGroup(pid);
    if (live.delete(pid) && live.size === 0) uninstall();
  };
}
