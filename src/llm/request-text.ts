/**
 * What a shell command reads: the system text, a blank line, then the prompt (the system text
 * alone when the prompt is empty, and the other way round).
 */
import type { LlmRequest } from './provider.js';

/**
 * The request as one text for a command's stdin or prompt file.
 *
 * @example
 * requestText({ system: 'Answer briefly.', prompt: 'Why?', timeoutMs: 1000 }); // 'Answer briefly.\n\nWhy?\n'
 */
export function requestText(request: Pick<LlmRequest, 'system' | 'prompt'>): string {
  const parts = [request.system.trim(), request.prompt.trim()].filter((part) => part !== '');
  return `${parts.join('\n\n')}\n`;
}
