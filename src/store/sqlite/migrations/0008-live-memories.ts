/**
 * Schema v8: live memories by tier — not archived, not quarantined, not an ingested document
 * chunk — the count the automatic consolidation trigger reads after each write.
 */
import type { Migration } from './migration.js';

/**
 * Not an ingested chunk: its provenance (JSON.stringify's output) has no `chunk_index` key. A text
 * test, not json_extract, so that no stored value can make an index update fail.
 */
export const NOT_A_CHUNK = 'coalesce(instr(provenance, \'"chunk_index":\'), 0) = 0';

/** The condition shared by the index and the query that must use it (word for word). */
export const LIVE_MEMORY = `archived = 0 AND quarantined = 0 AND ${NOT_A_CHUNK}`;

export const MIGRATION_0008: Migration = {
  version: 8,
  name: 'live-memories',
  statements: [`CREATE INDEX idx_items_live_memories ON memory_items(tier) WHERE ${LIVE_MEMORY}`],
};
