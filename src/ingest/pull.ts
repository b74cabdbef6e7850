/**
 * `pull`: the proposals found in an LLM's answer are written through the same write path as `put`
 * (so the policy admits each), all or nothing, after the policy has read the whole input.
 * `memory_propose` shares the parsing but writes each proposal on its own.
 */
import { EngramError, type ErrorCode, FIX_HINTS, isEngramError } from '../errors.js';
import { policyRejected, rejectedRules } from '../items/admission.js';
import { redactSecrets } from '../policy/secret-spans.js';
import type { PullInput } from '../items/schemas.js';
import type { MemoryItem } from '../types.js';
import { evaluatePolicy, type PolicyVerdict } from '../policy/evaluate.js';
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

/** One proposal of an input, ready for put: its 1-based position, its title, and put's input. */
export interface PlannedProposal {
  index: number;
  title: string;
  input: Record<string, unknown> & { content: string; title?: string; tags: string[]; entities?: string[] };
}

/** An input parsed into proposals, nothing written yet. */
export interface PullPlan {
  format: ProposalFormat;
  entries: PlannedProposal[];
}

/**
 * Parses `text` into the proposals `put` will be given. For `pull`, the policy first reads the
 * whole input (the size rule aside): a secret cut in two by the split of a long answer, or spread
 * over two proposals, refuses the input before anything is split or stored. JSON nested deeper
 * than {@link MAX_JSON_DEPTH} is a PARAM_ERROR.
 */
export function planPull(
  text: string,
  defaults: Omit<PullInput, 'type'> & { type?: string },
  origin: 'pull' | 'propose' = 'pull',
): PullPlan {
  if (text.trim() === '') {
    throw new EngramError('EMPTY_INPUT', 'Nothing to pull: the input is empty', {
      hint: FIX_HINTS.give_pull_text,
      fix: 'give_pull_text',
    });
  }
  if (origin === 'pull') {
    const whole = evaluatePolicy({ content: text }, { ignoreSize: true });
    if (whole.verdict === 'reject') {
      const refused = policyRejected(whole);
      throw new EngramError('POLICY_REJECTED', `Nothing pulled: the input as a whole is refused (${refused.message})`, {
        hint: `Nothing was stored. ${refused.hint ?? ''}`.trim(),
        fix: refused.fix,
        details: { ...refused.details },
      });
    }
  }
  const { format, proposals } = parseProposals(text);
  const expanded = format === 'text' ? splitLongNote(proposals[0]?.content ?? text, defaults.title) : proposals;
  const entries = expanded.map((proposal, i): PlannedProposal => {
    const index = i + 1;
    const title = proposal.title ?? defaults.title ?? '';
    return {
      index,
      title,
      input: {
        ...proposal,
        title: title === '' ? undefined : title,
        type: proposal.type ?? defaults.type,
        scope: proposal.scope ?? defaults.scope,
        tags: [...(proposal.tags ?? []), ...(defaults.tags ?? [])],
        // A proposal's provenance is its own: the policy quarantines one that gives none.
        provenance: origin === 'pull' ? { source: 'pull', format, proposal: index, ...proposal.provenance } : proposal.provenance,
      },
    };
  });
  return { format, entries };
}

type Written = { item: MemoryItem; policy: PolicyVerdict; deduplicated?: true };

function storedEntry(entry: PlannedProposal, written: Written): PullEntry {
  const { item, policy, deduplicated } = written;
  const rules = policy.matches.map((m) => m.rule);
  const status = item.quarantined ? 'quarantined' : 'stored';
  return {
    index: entry.index,
    status,
    id: item.id,
    title: entry.title,
    ...(rules.length > 0 ? { rules } : {}),
    ...(status === 'quarantined' ? quarantineReason(rules) : {}),
    ...(deduplicated ? { deduplicated } : {}),
  };
}

/** A refused proposal as a report entry; failures of the store itself are thrown on. */
function refusedEntry(entry: PlannedProposal, error: unknown): PullEntry {
  if (!isEngramError(error) || error.code === 'DB_BUSY' || error.code === 'DB_ERROR') throw error;
  const rules = rejectedRules(error);
  // The title is shown with its secrets masked: it may be what the policy refused.
  return { index: entry.index, status: 'rejected', title: redactSecrets(entry.title), error: error.code, reason: error.message, ...(rules ? { rules } : {}) };
}

function tally(format: ProposalFormat, items: PullEntry[]): PullResult {
  const count = (status: PullEntry['status']) => items.filter((e) => e.status === status).length;
  return {
    format,
    proposals: items.length,
    stored: count('stored'),
    quarantined: count('quarantined'),
    rejected: count('rejected'),
    items,
  };
}

/**
 * Writes every proposal of `plan` in one transaction (`write` runs inside it, each write a
 * savepoint): all are stored, or — when any is refused — none, and the error lists every refused
 * proposal by position (never its text). The code is POLICY_REJECTED when the policy refused one,
 * else the first refusal's.
 */
export function commitPull(
  plan: PullPlan,
  write: (input: Record<string, unknown>) => Promise<Written>,
  transaction: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<PullResult> {
  return transaction(async () => {
    const items: PullEntry[] = [];
    const refused: PullEntry[] = [];
    for (const entry of plan.entries) {
      try {
        items.push(storedEntry(entry, await write(entry.input)));
      } catch (error) {
        refused.push(refusedEntry(entry, error));
      }
    }
    if (refused.length === 0) return tally(plan.format, items);
    const first = refused.find((e) => e.error === 'POLICY_REJECTED') ?? refused[0];
    const total = plan.entries.length;
    const why = `proposal ${first?.index}: ${first?.reason}`;
    const message = `Nothing pulled: ${refused.length} of ${total} proposals refused (${why})`;
    throw new EngramError(first?.error ?? 'POLICY_REJECTED', message, {
      hint: 'Nothing was stored. Fix or remove the refused proposals, then pull again.',
      details: {
        proposals: total,
        refused: refused.map(({ index, error, reason, rules }) => ({
          index,
          error,
          reason,
          ...(rules ? { rules } : {}),
        })),
      },
    });
  });
}

/**
 * Writes each proposal of `text` with `write` (the facade's `put` path) on its own: one refused
 * proposal never stops the others (`memory_propose`; `pull` is all or nothing, {@link commitPull}).
 */
export async function pullProposals(
  text: string,
  defaults: Omit<PullInput, 'type'> & { type?: string },
  write: (input: Record<string, unknown>) => Promise<Written>,
  origin: 'pull' | 'propose' = 'pull',
): Promise<PullResult> {
  const plan = planPull(text, defaults, origin);
  const items: PullEntry[] = [];
  for (const entry of plan.entries) {
    try {
      items.push(storedEntry(entry, await write(entry.input)));
    } catch (error) {
      items.push(refusedEntry(entry, error));
    }
  }
  return tally(plan.format, items);
}
