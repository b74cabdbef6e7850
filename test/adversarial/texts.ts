/**
 * Every text of the policy's corpora: the fixture files (adversarial and benign) and the generated
 * corpus (secrets, injections, benign look-alikes), for tests that compare two ways of judging them.
 */
import { policyCorpus } from '../helpers.js';
import { benignCases } from './benign.js';
import { injectionCases } from './injections.js';
import { secretCases } from './secrets.js';

export function policyTexts(): string[] {
  return [
    ...policyCorpus('adversarial.jsonl').map((c) => c.text),
    ...policyCorpus('benign.jsonl').map((c) => c.text),
    ...secretCases().map((c) => c.text),
    ...injectionCases().map((c) => c.text),
    ...benignCases().map((c) => c.text),
  ];
}
