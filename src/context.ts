/**
 * What the facade hands every operation: the store, the clock, the actor and the session's
 * settings. Operations live in their feature folders and take this instead of closing over
 * `openEngram`'s locals, so each can be read and tested on its own.
 */
import type { Embedder } from './embed/embedder.js';
import type { AdmissionHook } from './items/admission.js';
import type { ItemWriter } from './items/writer.js';
import type { Indexer } from './search/indexer.js';
import type { Store } from './store/store.js';
import type { Secrecy, TokenizerName } from './types.js';
import type { Clock } from './util/time.js';

/** Automatic consolidation after writes: at `threshold` live STM items, at most once per interval. */
export interface AutoConsolidateOptions {
  threshold: number;
  intervalMinutes: number;
}

/** The CLI's automatic consolidation: at 20 live STM items (KOAS), at most every 10 minutes. */
export const AUTO_CONSOLIDATE_DEFAULTS: AutoConsolidateOptions = { threshold: 20, intervalMinutes: 10 };

export interface OperationContext {
  readonly store: Store;
  /** The one write path: every item version with its index entry, revision and event. */
  readonly writer: ItemWriter;
  /** What the full-text index and queries need from an item or a text (the segmenter). */
  readonly indexer: Indexer;
  readonly clock: Clock;
  /** The clock's time as an ISO-8601 string. */
  now(): string;
  /** Recorded on every event and revision (`--session`); null when none was given. */
  readonly actor: string | null;
  /** False searches with LIKE only, as if FTS5 were missing. */
  readonly fullText: boolean;
  /** Output redaction tier for search, recall, show and export. */
  readonly defaultSecrecy: Secrecy;
  /** What recall and brief count their budget in; the built-in estimate when not given. */
  readonly tokenizer?: TokenizerName;
  /** Extra write policy called for every item before it is stored. */
  readonly admit?: AdmissionHook;
  /** Off unless given. */
  readonly autoConsolidate?: AutoConsolidateOptions;
  /**
   * Computes the items' vectors (`--embedder`); none means lexical only. Writes embed what they
   * stored after their transaction, within a short bound; what is left is pending.
   */
  readonly embedder?: Embedder | undefined;
}
