/**
 * The links of an import, written once every record is in: each end is found by its source id,
 * among the records of this run first, then among items an earlier import of the same source
 * stored. A link whose other end is missing (never imported, refused) is reported, not guessed.
 */
import type { ItemWriter } from '../items/writer.js';
import type { Store } from '../store/store.js';
import type { LinkType } from '../types.js';
import { candidateIds, isImportOf } from './map-record.js';
import type { SourceImportReport } from './import-report.js';
import type { ImportSourceName } from './source.js';

/** Links written per transaction. */
const LINK_BATCH = 500;

export interface PendingLink {
  from: string;
  to: string;
  type: LinkType;
}

export interface LinkPass {
  store: Store;
  writer: ItemWriter;
  source: ImportSourceName;
  namespace?: string;
  /** Source id → engram id of every record this run stored or found unchanged. */
  ids: ReadonlyMap<string, string>;
  now: string;
  dryRun: boolean;
}

/** The engram id of a record imported earlier from the same source, if the store holds it. */
async function storedId(pass: LinkPass, sourceId: string): Promise<string | undefined> {
  for (const id of candidateIds(pass.source, sourceId, pass.namespace)) {
    const item = await pass.store.items.get(id);
    if (item !== undefined && isImportOf(item, pass.source, sourceId, pass.namespace)) return id;
  }
  return undefined;
}

async function resolve(pass: LinkPass, sourceId: string): Promise<string | undefined> {
  return pass.ids.get(sourceId) ?? (await storedId(pass, sourceId));
}

/** Resolves and writes `links`, counting them in `report` (a dry run counts what it would add). */
export async function writeLinks(
  links: readonly PendingLink[],
  pass: LinkPass,
  report: Pick<SourceImportReport, 'links' | 'not_mapped'>,
): Promise<void> {
  const resolved: { src_id: string; dst_id: string; type: LinkType }[] = [];
  for (const link of links) {
    const src = pass.ids.get(link.from);
    const dst = await resolve(pass, link.to);
    if (src === undefined) continue;
    if (dst === undefined || dst === src) {
      report.links.unresolved++;
      const why = dst === undefined ? `no imported record ${link.to}` : 'a link to itself';
      report.not_mapped.push({ where: link.from, field: 'links', reason: `${link.type} link: ${why}` });
      continue;
    }
    resolved.push({ src_id: src, dst_id: dst, type: link.type });
  }
  for (let start = 0; start < resolved.length; start += LINK_BATCH) {
    const batch = resolved.slice(start, start + LINK_BATCH);
    if (pass.dryRun) {
      for (const link of batch) {
        const known = (await pass.store.links.list(link.src_id)).some(
          (l) => l.src_id === link.src_id && l.dst_id === link.dst_id && l.type === link.type,
        );
        if (known) report.links.existing++;
        else report.links.created++;
      }
      continue;
    }
    // Counted after commit: a busy retry runs the transaction again from the start.
    const created = await pass.store.transaction(async () => {
      let added = 0;
      for (const link of batch) if (await pass.writer.link({ ...link, created_at: pass.now })) added++;
      return added;
    });
    report.links.created += created;
    report.links.existing += batch.length - created;
  }
}
