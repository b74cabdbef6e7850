/**
 * The policy judgements ingest may run away from its main thread (policy-pool.ts): each is a pure
 * function of plain data, so a worker and the main thread give the same answer for the same input.
 */
import { policyOptions } from '../items/admission.js';
import { evaluatePolicy, type PolicySubject, type PolicyVerdict } from '../policy/evaluate.js';
import { type SecretSpan, secretSpans } from '../policy/secret-spans.js';

/** The rejecting rules the policy finds in `text`, whatever its length. */
export function rejectingRules(text: string): string[] {
  return evaluatePolicy({ content: text }, { ignoreSize: true }).matches.filter((m) => m.action === 'reject').map((m) => m.rule);
}

const INGEST_OPTIONS = policyOptions({ operation: 'ingest' });

/** What an ingested item's admission asks of the policy (admitWrite's call for `ingest`). */
export function ingestVerdict(subject: PolicySubject): PolicyVerdict {
  return evaluatePolicy(subject, INGEST_OPTIONS);
}

/** The fields of an item the policy reads (evaluate.ts), to send a worker no more than it needs. */
export function policySubject(item: PolicySubject): PolicySubject {
  const { content, title, type, tags, entities, source, provenance } = item;
  const { id, key, task_id, step_id, scope, corpus_id } = item;
  return { content, title, type, tags, entities, source, provenance, id, key, task_id, step_id, scope, corpus_id };
}

export type PolicyRequest
  = | { id: number; kind: 'verdicts'; inputs: PolicySubject[] }
    | { id: number; kind: 'rules'; inputs: string[] }
    | { id: number; kind: 'spans'; inputs: string[] };

export type PolicyResult = PolicyVerdict | string[] | SecretSpan[];

/** Runs one request: one result per input, in order. */
export function runPolicyTask(request: Pick<PolicyRequest, 'kind' | 'inputs'>): PolicyResult[] {
  switch (request.kind) {
    case 'verdicts':
      return (request.inputs as PolicySubject[]).map(ingestVerdict);
    case 'rules':
      return (request.inputs as string[]).map(rejectingRules);
    case 'spans':
      return (request.inputs as string[]).map(secretSpans);
  }
}
