/**
 * Injected into the CommonJS executable by `bundle.ts`: its own address, where the source, written
 * as an ES module, reads `import.meta.url`, made when first read (the first URL of a process costs
 * some 0.4 ms, and most runs read none). Never run as compiled by tsc.
 */
import { pathToFileURL } from 'node:url';

let url: string | undefined;

export const importMeta = {
  get url(): string {
    return (url ??= pathToFileURL(__filename).href);
  },
};
