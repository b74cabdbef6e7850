/**
 * The policy worker (a `worker_thread` started by policy-pool.ts): it runs the write policy's pure
 * judgements — an item's verdict, the rejecting rules of a text, the secret spans of a text — for
 * ingest, so that a long ingest judges on the other cores while the main thread reads, chunks and
 * writes. The same functions, on the same inputs, as in the main thread: the verdicts are the same.
 */
import { parentPort } from 'node:worker_threads';
import { type PolicyRequest, runPolicyTask } from './policy-tasks.js';

parentPort?.on('message', (request: PolicyRequest) => {
  try {
    parentPort?.postMessage({ id: request.id, results: runPolicyTask(request) });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: (error as Error).message ?? String(error) });
  }
});
