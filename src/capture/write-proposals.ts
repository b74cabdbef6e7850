/**
 * The explicit proposals of a turn (`explicit-proposals.ts`), each written through `put` on its
 * own as `pull` would store it (policy, dedup on write, similar items), with the turn as its
 * provenance; one refused proposal never stops the others nor the turn's episode.
 */
import type { OperationContext } from '../context.js';
import type { PutInput } from '../items/schemas.js';
import { putItem } from '../put/put.js';
import { explicitProposals } from './explicit-proposals.js';
import type { CaptureReport } from './report.js';
import type { Turn } from './transcript.js';
import { type CapturedSession, refusalOf, turnProvenance } from './write-turn.js';

/** Writes the proposals the assistant made in `turn` and counts them in `report`. */
export async function writeProposals(
  ctx: OperationContext,
  session: CapturedSession,
  turn: Turn,
  report: CaptureReport,
): Promise<void> {
  let index = 0;
  for (const answer of turn.answers) {
    const found = explicitProposals(answer);
    for (const proposal of found?.proposals ?? []) {
      index++;
      report.proposals.found++;
      const input: PutInput = {
        ...(proposal as Omit<PutInput, 'type' | 'tier'>),
        scope: proposal.scope ?? session.scope,
        tags: proposal.tags ?? [],
        provenance: {
          ...turnProvenance(session, turn),
          proposal: index,
          format: found?.format,
          ...proposal.provenance,
        },
      } as PutInput;
      try {
        const { item } = await putItem(ctx, input, 'capture');
        if (item.quarantined) report.proposals.quarantined++;
        else report.proposals.stored++;
      } catch (error) {
        report.refusals.push(refusalOf(error, turn, index));
        report.proposals.rejected++;
      }
    }
  }
}
