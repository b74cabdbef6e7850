/** The entries of a zip container (Office Open XML, OpenDocument), bounded against zip bombs. */
import { ExtractError } from './index.js';

/** Total uncompressed bytes read from one document. */
const MAX_UNCOMPRESSED = 256 * 1024 * 1024;

/** The named entries (UTF-8 text) of the zip in `bytes` that `wanted` accepts. */
export async function readZipEntries(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  format: string,
): Promise<Map<string, string>> {
  const { unzipSync, strFromU8 } = await import('fflate');
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        total += file.originalSize;
        if (total > MAX_UNCOMPRESSED) throw new ExtractError(`${format} expands to more than 256 MB`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    throw new ExtractError(`corrupt ${format} (not a readable zip: ${(error as Error).message})`);
  }
  return new Map(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
}

/** Entries named like `prefix<N>.xml`, in numeric order (slides, sheets). */
export function numbered(entries: Map<string, string>, prefix: string): string[] {
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(\\d+)\\.xml$`);
  return [...entries.keys()]
    .map((name) => ({ name, n: Number(pattern.exec(name)?.[1]) }))
    .filter((e) => Number.isFinite(e.n))
    .sort((a, b) => a.n - b.n)
    .map((e) => e.name);
}
