/**
 * The single gate every write passes before it is stored: content must not be empty, then the
 * policy engine decides. A rejected write throws POLICY_REJECTED and stores nothing; a quarantined
 * one is stored as STM, not injectable, expiring in {@link QUARANTINE_HOURS} hours unless verified.
 * An optional {@link AdmissionHook} (library users' own rules) runs last.
 */
import { EngramError, type ErrorFix, FIX_HINTS } from '../errors.js';
import { evaluatePolicy, type PolicyMatch, type PolicyOptions, type PolicyVerdict } from '../policy/evaluate.js';
import type { PolicyGroup } from '../policy/rules.js';
import type { MemoryItem } from '../types.js';
import { addHours } from '../util/time.js';

export type WriteOperation = 'put' | 'import' | 'ingest' | 'pull' | 'propose' | 'capture' | 'consolidate' | 'verify';

export interface AdmissionContext {
  operation: WriteOperation;
  actor: string | null;
  /** The write's timestamp (UTC ISO-8601), the start of a quarantine. */
  now: string;
  /** Privileged writers (MCP `memory_write`, history replay) skip the quarantine rules only. */
  privileged?: boolean;
}

/**
 * Inspects an item about to be stored. Returns the item to store (possibly changed) or throws an
 * EngramError (POLICY_REJECTED) to refuse the write.
 */
export type AdmissionHook = (item: MemoryItem, context: AdmissionContext) => MemoryItem;

export interface Admission {
  item: MemoryItem;
  policy: PolicyVerdict;
}

/** How long a quarantined item lives unless `engram verify` keeps it. */
export const QUARANTINE_HOURS = 72;

/** Operations whose content comes from a model and must say where it comes from (KOAS). */
const PROPOSALS: ReadonlySet<WriteOperation> = new Set(['propose']);

const HINTS: Partial<Record<PolicyGroup, string>> = {
  secret: 'Remove the secret; store where it lives (a vault path, an env var name) instead.',
  injection: 'Memory must not address the model; state the fact itself.',
  instruction: 'Store what a tool call did or found, not the call itself.',
  size: FIX_HINTS.chunk_long_text,
};

/** The fix a shell may say in its own terms, for the groups whose hint names one. */
const FIXES: Partial<Record<PolicyGroup, ErrorFix>> = { size: 'chunk_long_text' };

/** The POLICY_REJECTED error for a verdict: rule ids, masked excerpts, and what to do instead. */
export function policyRejected(policy: PolicyVerdict): EngramError {
  const rejecting = policy.matches.filter((m) => m.action === 'reject');
  const first = rejecting[0]?.group;
  return new EngramError('POLICY_REJECTED', `Rejected by policy: ${rejecting.map((m) => m.rule).join(', ')}`, {
    hint: (first && HINTS[first]) ?? FIX_HINTS.see_policy_rules,
    fix: first && HINTS[first] ? FIXES[first] : 'see_policy_rules',
    details: { rules: policy.matches satisfies PolicyMatch[] },
  });
}

/** The ids of the rejecting rules carried by a POLICY_REJECTED error; undefined for other errors. */
export function rejectedRules(error: EngramError): string[] | undefined {
  if (error.code !== 'POLICY_REJECTED' || !Array.isArray(error.details.rules)) return undefined;
  return (error.details.rules as PolicyMatch[]).filter((r) => r.action === 'reject').map((r) => r.rule);
}

function quarantine(item: MemoryItem, now: string): MemoryItem {
  const until = addHours(now, QUARANTINE_HOURS);
  return {
    ...item,
    quarantined: true,
    injectable: false,
    tier: 'stm',
    validation: 'unverified',
    expires_at: item.expires_at !== null && item.expires_at < until ? item.expires_at : until,
  };
}

/** Admits `item` through the built-in rules, the policy engine, then the optional hook. */
export function admitWrite(item: MemoryItem, context: AdmissionContext, hook?: AdmissionHook): Admission {
  return admitJudged(item, context, () => evaluatePolicy(item, policyOptions(context)), hook);
}

/** The options of the policy's call for a write in `context` (what admitWrite evaluates with). */
export function policyOptions(context: Pick<AdmissionContext, 'operation' | 'privileged'>): PolicyOptions {
  return { privileged: context.privileged, requireProvenance: PROPOSALS.has(context.operation) };
}

/**
 * admitWrite with the policy's verdict given by `judge` — the same verdict, computed elsewhere
 * (ingest judges on worker threads): `judge` must return `evaluatePolicy(item, policyOptions(context))`.
 */
export function admitJudged(
  item: MemoryItem,
  context: AdmissionContext,
  judge: () => PolicyVerdict,
  hook?: AdmissionHook,
): Admission {
  if (item.content.trim() === '') {
    throw new EngramError('EMPTY_INPUT', 'Content is empty', {
      hint: FIX_HINTS.give_content,
      fix: 'give_content',
    });
  }
  const policy = judge();
  if (policy.verdict === 'reject') throw policyRejected(policy);
  // What a transcript proposes was written by a model that read untrusted text (files, web pages,
  // tool output): injectable only once a person has reviewed it (`engram review`).
  const untrusted = context.operation === 'capture' && item.injectable;
  let admitted = (policy.verdict === 'quarantine' || untrusted) && !item.quarantined ? quarantine(item, context.now) : item;
  // Quarantine holds until `verify`: no later write makes the item injectable on its own.
  if (admitted.quarantined && admitted.injectable) admitted = { ...admitted, injectable: false };
  if (hook !== undefined) admitted = hook(admitted, context);
  return { item: admitted, policy };
}
