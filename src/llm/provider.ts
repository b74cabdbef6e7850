/**
 * The model side of the recall–answer loop (`engram loop`, `ask`, `chat`): one text in, one text
 * out. A provider is a shell command (`--llm "claude -p"`) or an HTTP endpoint without a shell
 * (`--llm openai:MODEL[@BASE_URL]`, `--llm ollama:MODEL[@URL]`). The loop controller reads the
 * reply (an answer and, perhaps, a proposed query) and decides everything else itself.
 */

/** The longest reply read from a model, a shell command's or an HTTP server's: 4 MiB. */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** How a shell command receives the prompt (memctl's `--llm-mode`). */
export type LlmMode = 'stdin' | 'file';

export interface LlmRequest {
  /** The system prompt (the protocol's rules); a shell command gets it before the prompt. */
  system: string;
  /** The question and its memory context. */
  prompt: string;
  /** The call fails with LLM_TIMEOUT past this many milliseconds; nothing is left running. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface LlmProvider {
  /** What the trace and messages call it: the command line, or `openai:MODEL`. */
  readonly label: string;
  /**
   * The model's whole reply. Throws an EngramError: LLM_TIMEOUT, or LLM_ERROR (a missing command,
   * a non-zero exit, an HTTP failure).
   */
  complete(request: LlmRequest): Promise<string>;
}
