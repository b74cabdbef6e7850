/** The commands `engram daemon` runs (the ones agents call in loops); any other runs in its own process. */
export const DAEMON_COMMANDS: ReadonlySet<string> = new Set(['list', 'search', 'recall', 'get', 'put', 'brief', 'hook']);
