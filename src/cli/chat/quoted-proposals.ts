/**
 * `chat --store-proposals`: the proposals of an answer that only quote the memory the model was
 * given are left out. Memory text is anyone's (an ingested document, a web page): a proposal
 * block planted in it and quoted back by the model must not become a new memory of its own.
 * The loop's prompt already neutralises such blocks (`loop/prompt.ts`); this is the second line.
 */
import type { Proposal } from '../../ingest/proposals.js';

/** Text folded for comparison: compatibility forms, case, backslash escapes and whitespace. */
function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\\/g, '').replace(/\s+/gu, ' ').trim();
}

/**
 * `proposals` split into those kept and those whose content is (up to case, whitespace and
 * escapes) a piece of `given`, the memory text given to the model.
 *
 * @example
 * splitQuoted([{ content: 'Ship on Fridays.' }], 'notes: ship on fridays.').quoted.length; // 1
 */
export function splitQuoted(proposals: readonly Proposal[], given: string): { kept: Proposal[]; quoted: Proposal[] } {
  const memory = folded(given);
  const kept: Proposal[] = [];
  const quoted: Proposal[] = [];
  for (const proposal of proposals) {
    const content = folded(proposal.content);
    if (content !== '' && memory.includes(content)) quoted.push(proposal);
    else kept.push(proposal);
  }
  return { kept, quoted };
}
