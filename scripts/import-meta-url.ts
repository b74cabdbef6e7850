/**
 * Injected into the CommonJS executable by `bundle.ts`: its own address, where the source, written
 * as an ES module, reads `import.meta.url`. Never run as compiled by tsc.
 */
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
