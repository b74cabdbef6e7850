/**
 * An error the `engram` executable reports itself, before or around the CLI (a daemon gone in the
 * middle of a command, a damaged install, a current folder removed): one line with its hint, as
 * the CLI's own errors, in JSON when standard output is not a terminal. No imports: it is part of
 * the executable.
 */

/** The text to write to standard error; `detail` (a stack, with --verbose) follows the line. */
export function launchError(message: string, hint: string | undefined, json: boolean, detail = ''): string {
  if (json) return `${JSON.stringify({ ok: false, error: 'GENERAL_ERROR', message, ...(hint === undefined ? {} : { hint }) })}${detail}\n`;
  return `engram: error[GENERAL_ERROR]: ${message}${hint === undefined ? '' : `\nhint: ${hint}`}${detail}\n`;
}
