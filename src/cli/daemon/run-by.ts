/**
 * A command of the daemon's run as its client would run it: in the client's folder, environment
 * and file mode mask (`server.ts` runs commands one at a time). Light: node built-ins only.
 */

/**
 * Runs `fn` in the client's folder, environment and file mode mask (commands are run one at a time),
 * so that even a library that reads `process.cwd()` or `process.env`, and every file created, is as
 * in a process of the client's.
 */
export async function asRunBy<T>(
  request: { cwd: string; env: Record<string, string | undefined>; umask?: number },
  fn: () => Promise<T>,
): Promise<T> {
  const env = { ...process.env };
  const cwd = process.cwd();
  const mask = request.umask === undefined ? undefined : process.umask(request.umask);
  try {
    process.chdir(request.cwd);
  } catch {
    // A folder gone since: the command sees it gone too (its paths are resolved against it).
  }
  setEnvironment(request.env);
  try {
    return await fn();
  } finally {
    setEnvironment(env);
    process.chdir(cwd);
    if (mask !== undefined) process.umask(mask);
  }
}

/**
 * Makes the process environment `next`, in place: Node.js reads the real environment for the time
 * zone (`TZ`: dates without a zone, as `--since 2026-11-01T10:00` or `--expires`) and for
 * `os.homedir()` (`HOME`), which a new object put in `process.env` would not reach.
 */
function setEnvironment(next: Record<string, string | undefined>): void {
  for (const key of Object.keys(process.env)) {
    if (next[key] === undefined) delete process.env[key];
  }
  for (const [key, value] of Object.entries(next)) {
    if (value !== undefined && process.env[key] !== value) process.env[key] = value;
  }
}
