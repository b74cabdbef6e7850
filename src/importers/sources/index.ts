/**
 * The importers by name, each loaded when it is used (one line per source). A source whose reader
 * is not part of this build answers PARAM_ERROR "not available".
 */
import { EngramError } from '../../errors.js';
import type { ImportSource, ImportSourceName } from '../source.js';

type Load = () => Promise<ImportSource>;

function notAvailable(name: ImportSourceName): Load {
  return () =>
    Promise.reject(
      new EngramError('PARAM_ERROR', `Importing from ${name} is not available in this build`, {
        hint: 'See engram import --help for the sources this build reads.',
        details: { from: name },
      }),
    );
}

export const SOURCES: Readonly<Record<ImportSourceName, Load>> = {
  'memctl': notAvailable('memctl'),
  'memtool': async () => (await import('./memtool.js')).memtoolSource,
  'mem-context': async () => (await import('./mem-context.js')).memContextSource,
  'mcp-memory-service': notAvailable('mcp-memory-service'),
  'basic-memory': async () => (await import('./basic-memory.js')).basicMemorySource,
};

/** The reader of `name`, loaded now. */
export function loadSource(name: ImportSourceName): Promise<ImportSource> {
  return SOURCES[name]();
}
