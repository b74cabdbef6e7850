/**
 * The MCP server fills pending vectors in the background: a pass of a few batches soon after it
 * starts, then one every interval (sooner while there is more to do), never two at a time. The
 * timer is unref'd (it never keeps the process alive) and stopping waits for a running pass to
 * end after cancelling its request. Without an embedder, or on a store that keeps no vectors, the
 * first pass finds out and the loop ends; an embedder that fails is tried again next interval.
 */
import type { Engram } from '../engram.js';
import { toEngramError } from '../errors.js';

export interface BackgroundEmbedOptions {
  /** Milliseconds between passes when nothing is left pending (default 30 000). */
  intervalMs?: number;
  /** Milliseconds before the first pass (default 1000). */
  firstDelayMs?: number;
  /** Batches of 64 per pass (default 4). */
  batches?: number;
  /** Told of each failed pass. */
  onError?: (error: Error) => void;
}

export interface BackgroundEmbedding {
  /** Stops the loop; resolves once a running pass has ended. */
  stop(): Promise<void>;
}

/**
 * Starts the background loop over `engram`.
 *
 * @example
 * const background = startBackgroundEmbedding(engram, { onError: (e) => log(e.message) });
 * await background.stop();
 */
export function startBackgroundEmbedding(engram: Engram, options: BackgroundEmbedOptions = {}): BackgroundEmbedding {
  const { intervalMs = 30_000, firstDelayMs = 1000, batches = 4, onError } = options;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delay: number) => {
    if (controller.signal.aborted) return;
    timer = setTimeout(() => {
      running = pass().finally(() => {
        running = undefined;
      });
    }, delay);
    timer.unref();
  };
  const pass = async () => {
    try {
      const result = await engram.embed({ maxBatches: batches, signal: controller.signal, confirmModel: false });
      // More may be pending: the next pass comes at once, yielding to the tool calls in between.
      schedule(result.embedded > 0 && result.pending > 0 ? 10 : intervalMs);
    } catch (error) {
      const failure = toEngramError(error);
      // No embedder configured, or no vectors in this store: nothing will ever be done.
      if (failure.code === 'PARAM_ERROR' && failure.fix === 'configure_embedder') return;
      if (failure.code === 'DB_ERROR' && /keeps no vectors/.test(failure.message)) return;
      if (!controller.signal.aborted) onError?.(failure);
      schedule(intervalMs);
    }
  };
  schedule(firstDelayMs);
  return {
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
