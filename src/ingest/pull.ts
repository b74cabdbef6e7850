/**
 * `pull`: the proposals found in an LLM's answer are written one by one through the same write
 * path as `put` (so the policy admits each); one refused proposal never stops the others.
 */
import { EngramError, type ErrorCode, isEngramError } from '../errors.js';
import { rejectedRules } from '../items/admission.js';
import type { PullInput } from '../items/schemas.js';
import type { MemoryItem } from '../types.js';
import type { PolicyVerdict } from '../policy/evaluate.js';
import { PROVENANCE_RULE } from '../policy/rules.js';
import { parseProposals, type ProposalFormat, splitLongNote } from './proposals.js';

export interface PullEntry {
  /** 1-based position of the proposal in the input. */
  index: number;
  status: 'stored' | 'quarantined' | 'rejected';
  id?: string;
  title: string;
  /** Policy rules that matched (quarantine or reject). */
  rules?: string[];
  error?: ErrorCode;
  /** Why it was rejected or quarantined, e.g. `no provenance_hint`. */
  reason?: string;
  /** For a quarantined proposal: what would have avoided it, or how to keep it. */
  hint?: string;
  /** The same content was already stored in the scope: that item (`id`) was reinforced instead. */
  deduplicated?: true;
}

export interface PullResult {
  /** Where the proposals were found: JSON, delimited blocks, Markdown sections, or plain text. */
  format: ProposalFormat;
  proposals: number;
  stored: number;
  quarantined: number;
  rejected: number;
  items: PullEntry[];
}

/** What held a quarantined proposal, and the exact change that avoids it or keeps the item. */
export function quarantineReason(rules: readonly string[]): { reason: string; hint: string } {
  const others = rules.filter((r) => r !== PROVENANCE_RULE.id);
  const missing = others.length < rules.length;
  const reason = [...(missing ? ['no provenance_hint'] : []), ...(others.length > 0 ? [`held for review: ${others.join(', ')}`] : [])];
  const hint = [
    ...(missing ? ['add provenance_hint: {"source_id": "<the file, URL or ticket it comes from>"} (a string is taken as the source_id)'] : []),
    ...(others.length > 0 ? ['a person keeps it with `engram verify ID` after `engram review`'] : []),
  ];
  return { reason: reason.join('; '), hint: hint.join('; ') };
}

/** Parses `text` into proposals and writes each with `write` (the facade's `put` path). */
export async function pullProposals(
  text: string,
  defaults: Omit<PullInput, 'type'> & { type?: string },
  write: (input: Record<string, unknown>) => Promise<{ item: MemoryItem; policy: PolicyVerdict; deduplicated?: true }>,
  origin: 'pull' | 'propose' = 'pull',
): Promise<PullResult> {
  if (text.trim() === '') {
    throw new EngramError('EMPTY_INPUT', 'Nothing to pull: the input is empty', {
      hint: 'Pipe an LLM answer in: llm "…" | engram pull',
    });
  }
  const { format, proposals } = parseProposals(text);
  const expanded = format === 'text' ? splitLongNote(proposals[0]?.content ?? text, defaults.title) : proposals;
  const result: PullResult = { format, proposals: expanded.length, stored: 0, quarantined: 0, rejected: 0, items: [] };
  for (const [i, proposal] of expanded.entries()) {
    const index = i + 1;
    const title = proposal.title ?? defaults.title ?? '';
    try {
      const { item, policy, deduplicated } = await write({
        ...proposal,
        title: title === '' ? undefined : title,
        type: proposal.type ?? defaults.type,
        scope: proposal.scope ?? defaults.scope,
        tags: [...(proposal.tags ?? []), ...(defaults.tags ?? [])],
        // A proposal's provenance is its own: the policy quarantines one that gives none.
        provenance: origin === 'pull' ? { source: 'pull', format, proposal: index, ...proposal.provenance } : proposal.provenance,
      });
      const rules = policy.matches.map((m) => m.rule);
      const status = item.quarantined ? 'quarantined' : 'stored';
      result[status]++;
      const extra = {
        ...(rules.length > 0 ? { rules } : {}),
        ...(status === 'quarantined' ? quarantineReason(rules) : {}),
        ...(deduplicated ? { deduplicated } : {}),
      };
      result.items.push({ index, status, id: item.id, title, ...extra });
    } catch (error) {
      if (!isEngramError(error) || error.code === 'DB_BUSY' || error.code === 'DB_ERROR') throw error;
      result.rejected++;
      const rules = rejectedRules(error);
      result.items.push({ index, status: 'rejected', title, error: error.code, reason: error.message, ...(rules ? { rules } : {}) });
    }
  }
  return result;
}
