/** Typed, directed links between items (supersedes, supports, contradicts, derived_from, …). */
import type { MemoryLink } from '../../types.js';

export interface LinkRepository {
  /** Adds a link; resolves false when it already existed. */
  add(link: MemoryLink): Promise<boolean>;
  /** Links where the item is source or destination. */
  list(itemId: string): Promise<MemoryLink[]>;
}
