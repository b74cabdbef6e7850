/**
 * The importers by name, each loaded when it is used (one line per source).
 */
import type { ImportSource, ImportSourceName } from '../source.js';

type Load = () => Promise<ImportSource>;

export const SOURCES: Readonly<Record<ImportSourceName, Load>> = {
  'memctl': async () => (await import('./memctl.js')).memctlSource,
  'memtool': async () => (await import('./memtool.js')).memtoolSource,
  'mem-context': async () => (await import('./mem-context.js')).memContextSource,
  'mcp-memory-service': async () => (await import('./mcp-memory-service.js')).mcpMemoryServiceSource,
  'basic-memory': async () => (await import('./basic-memory.js')).basicMemorySource,
};

/** The reader of `name`, loaded now. */
export function loadSource(name: ImportSourceName): Promise<ImportSource> {
  return SOURCES[name]();
}
