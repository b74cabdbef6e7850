/**
 * The most standard input a command reads, in one place for the command (`read-input.ts`,
 * `commands/hook.ts`) and for the daemon client that reads it ahead (`daemon/stdin-plan.ts`). No
 * imports: the client is loaded before the CLI.
 */

/** The most standard input (and `--file`) `put`, `pull` and `policy check` read: 64 MiB. */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** The most of a hook's JSON `engram hook` reads: small, but a prompt can be long. */
export const MAX_HOOK_PAYLOAD_BYTES = 4 * 1024 * 1024;
