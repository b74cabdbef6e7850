/**
 * Whether an imported vector is kept: only when it has the configured embedder's dimension and
 * the store's vectors (if any) come from that embedder. A kept vector is stored as the embedder's
 * (normalised), so search compares it with the embedder's own; a dropped one leaves its item
 * pending, to be embedded by `engram embed` (or right after the import, within its short bound).
 * Dimension is all that is checked: two models of one dimension cannot be told apart here.
 */
import { normalize } from '../embed/embedder.js';
import type { OperationContext } from '../context.js';
import type { VectorModel } from '../store/store.js';
import type { SourceImportReport } from './import-report.js';

/** The model imported vectors are stored as, or why none can be. */
export type VectorTarget = { model: VectorModel } | { reason: string };

/**
 * The embedder's model, with its dimension known: from the embedder, else from the vectors it
 * stored already, else from one probe embedding (a local model loads, a remote one answers once).
 */
export async function vectorTarget(ctx: Pick<OperationContext, 'store' | 'embedder'>): Promise<VectorTarget> {
  const { store, embedder } = ctx;
  if (embedder === undefined) return { reason: 'no embedder is configured' };
  if (store.vectors === undefined) return { reason: 'the store keeps no vectors' };
  const recorded = await store.vectors.model();
  let dimensions = embedder.dimensions;
  if (dimensions === undefined && recorded?.id === embedder.id) dimensions = recorded.dimensions;
  if (dimensions === undefined) {
    try {
      dimensions = (await embedder.embed(['dimension probe']))[0]?.length;
    } catch {
      return { reason: `the embedder ${embedder.id} did not answer` };
    }
  }
  if (dimensions === undefined) return { reason: `the embedder ${embedder.id} did not answer` };
  if (recorded !== undefined && (recorded.id !== embedder.id || recorded.dimensions !== dimensions)) {
    return { reason: `the store holds vectors of ${recorded.id}` };
  }
  return { model: { id: embedder.id, dimensions } };
}

/**
 * Decides on one record's vector: returns it (normalised) when kept, undefined when dropped; the
 * report counts either way.
 */
export function keepVector(
  vector: Float32Array,
  target: VectorTarget,
  report: Pick<SourceImportReport, 'vectors'>,
): Float32Array | undefined {
  const reason = 'reason' in target
    ? target.reason
    : vector.length === target.model.dimensions
      ? undefined
      : `${vector.length} dimensions, the embedder's are ${target.model.dimensions}`;
  if (reason === undefined) {
    report.vectors.kept++;
    return normalize(Float32Array.from(vector));
  }
  report.vectors.dropped++;
  report.vectors.reasons[reason] = (report.vectors.reasons[reason] ?? 0) + 1;
  return undefined;
}
