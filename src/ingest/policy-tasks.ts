/**
 * The policy judgements ingest may run away from its main thread (policy-pool.ts): each is a pure
 * function of plain data, so a worker and the main thread give the same answer for the same input.
 */
import { policyOptions } from '../items/admission.js';
import { evaluatePolicy, type PolicySubject, type PolicyVerdict } from '../policy/evaluate.js';
import { PATTERN_RULES } from '../policy/rules.js';
import { type SecretSpan, secretSpans } from '../policy/secret-spans.js';

/**
 * The groups of the rules that reject: the others (personal data, self-instructions) only
 * quarantine, and a rule's matches do not depend on which other rules run (evaluate.ts).
 */
const REJECTING_GROUPS = [...new Set(PATTERN_RULES.filter((rule) => rule.action === 'reject').map((rule) => rule.group))];

/** The rejecting rules the policy finds in `text`, whatever its length (the rules that only quarantine are not run). */
export function rejectingRules(text: string): string[] {
  const { matches } = evaluatePolicy({ content: text }, { ignoreSize: true, groups: REJECTING_GROUPS });
  return matches.filter((m) => m.action === 'reject').map((m) => m.rule);
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

/** A short file's judgements in one task: its items' verdicts, its secret spans, the rules of `texts`. */
export interface FileJudging {
  subjects: PolicySubject[];
  text: string;
  texts: string[];
}

export interface FileJudged {
  verdicts: PolicyVerdict[];
  spans: SecretSpan[];
  rules: string[][];
}

export type PolicyRequest
  = | { id: number; kind: 'verdicts'; inputs: PolicySubject[] }
    | { id: number; kind: 'rules'; inputs: string[] }
    | { id: number; kind: 'spans'; inputs: string[] }
    | { id: number; kind: 'file'; inputs: FileJudging[] };

export type PolicyResult = PolicyVerdict | string[] | SecretSpan[] | FileJudged;

function judgeFile({ subjects, text, texts }: FileJudging): FileJudged {
  return { verdicts: subjects.map(ingestVerdict), spans: secretSpans(text), rules: texts.map(rejectingRules) };
}

/** Runs one request: one result per input, in order. */
export function runPolicyTask(request: Pick<PolicyRequest, 'kind' | 'inputs'>): PolicyResult[] {
  switch (request.kind) {
    case 'verdicts':
      return (request.inputs as PolicySubject[]).map(ingestVerdict);
    case 'rules':
      return (request.inputs as string[]).map(rejectingRules);
    case 'spans':
      return (request.inputs as string[]).map(secretSpans);
    case 'file':
      return (request.inputs as FileJudging[]).map(judgeFile);
  }
}
