/**
 * Where ingest's policy judgements run: in `worker_threads` (policy-worker.ts) when the machine
 * has cores to spare and the ingest is long enough to repay starting them, else in this thread.
 * The judgements are pure (policy-tasks.ts), so either place gives the same verdicts; work is cut
 * into tasks of about {@link TASK_CHARS} characters and each goes to the least busy worker. A
 * worker that fails or exits leaves its tasks to this thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PolicySubject, PolicyVerdict } from '../policy/evaluate.js';
import type { SecretSpan } from '../policy/secret-spans.js';
import { type FileJudged, type FileJudging, type PolicyRequest, type PolicyResult, runPolicyTask } from './policy-tasks.js';

/** About this many characters of text per task sent to a worker. */
export const TASK_CHARS = 32_000;
/** A text up to this long is judged in one task (policy-tasks.ts `file`); a longer one is shared out. */
export const ONE_TASK_CHARS = 64 * 1024;
/** Below this many bytes to ingest, starting workers costs more than it saves. */
export const POOL_MIN_BYTES = 512 * 1024;

export interface PolicyPool {
  /** How many workers judge (0: this thread). */
  readonly workers: number;
  verdicts(subjects: readonly PolicySubject[]): Promise<PolicyVerdict[]>;
  rules(texts: readonly string[]): Promise<string[][]>;
  spans(text: string): Promise<SecretSpan[]>;
  /** A short file's judgements in one task (one message each way). */
  file(job: FileJudging): Promise<FileJudged>;
  close(): Promise<void>;
}

type Kind = PolicyRequest['kind'];

interface Task {
  kind: Kind;
  inputs: unknown[];
  chars: number;
  resolve: (results: PolicyResult[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Map<number, Task>;
  /** Characters of the tasks it holds. */
  load: number;
  dead: boolean;
}

function sizeOf(input: unknown): number {
  if (typeof input === 'string') return input.length;
  if ('subjects' in (input as object)) return 3 * (input as FileJudging).text.length;
  return ((input as PolicySubject).content?.length ?? 0) + 500;
}

/** The worker's file beside this module's (the library's dist/src/ingest/, the bundle's chunks/). */
function workerFile(): string | undefined {
  // Beside this module: `.cjs` in the bundle, `.js` as tsc compiles it.
  const file = fileURLToPath(new URL(`./policy-worker${import.meta.url.endsWith('.cjs') ? '.cjs' : '.js'}`, import.meta.url));
  return existsSync(file) ? file : undefined;
}

function local(kind: Kind, inputs: unknown[]): Promise<PolicyResult[]> {
  try {
    return Promise.resolve(runPolicyTask({ kind, inputs } as PolicyRequest));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * A pool of `count` policy workers (0, or no worker file: every judgement runs in this thread).
 *
 * @example
 * const pool = createPolicyPool(2);
 * const [verdict] = await pool.verdicts([{ content: 'Deploys run from main' }]);
 * await pool.close();
 */
export function createPolicyPool(count: number): PolicyPool {
  const file = count > 0 ? workerFile() : undefined;
  const slots: Slot[] = [];
  let next = 0;
  const start = (): Slot => {
    const worker = new Worker(file as string);
    const slot: Slot = { worker, busy: new Map(), load: 0, dead: false };
    const fail = () => {
      if (slot.dead) return;
      slot.dead = true;
      // What it was judging is judged here instead.
      for (const task of slot.busy.values()) local(task.kind, task.inputs).then(task.resolve, task.reject);
      slot.busy.clear();
      slot.load = 0;
    };
    worker.on('message', (reply: { id: number; results?: PolicyResult[]; error?: string }) => {
      const task = slot.busy.get(reply.id);
      if (task === undefined) return;
      slot.busy.delete(reply.id);
      slot.load -= task.chars;
      if (reply.results !== undefined) task.resolve(reply.results);
      else task.reject(new Error(reply.error ?? 'policy worker failed'));
      if (slot.busy.size === 0) worker.unref();
    });
    worker.on('error', fail);
    worker.on('exit', fail);
    worker.unref();
    return slot;
  };
  if (file !== undefined) for (let i = 0; i < count; i++) slots.push(start());

  const send = (kind: Kind, inputs: unknown[], chars: number): Promise<PolicyResult[]> => {
    const live = slots.filter((s) => !s.dead);
    if (live.length === 0) return local(kind, inputs);
    const slot = live.reduce((a, b) => (b.load < a.load ? b : a));
    const id = next++;
    slot.load += chars;
    return new Promise((resolve, reject) => {
      slot.busy.set(id, { kind, inputs, chars, resolve, reject });
      slot.worker.ref();
      slot.worker.postMessage({ id, kind, inputs });
    });
  };

  /** Cuts `inputs` into tasks of about TASK_CHARS and gathers their results in order. */
  const run = async (kind: Kind, inputs: readonly unknown[]): Promise<PolicyResult[]> => {
    if (slots.length === 0) return local(kind, [...inputs]);
    const tasks: { inputs: unknown[]; chars: number }[] = [];
    let current = { inputs: [] as unknown[], chars: 0 };
    for (const input of inputs) {
      current.inputs.push(input);
      current.chars += sizeOf(input);
      if (current.chars >= TASK_CHARS) {
        tasks.push(current);
        current = { inputs: [], chars: 0 };
      }
    }
    if (current.inputs.length > 0) tasks.push(current);
    return (await Promise.all(tasks.map((t) => send(kind, t.inputs, t.chars)))).flat();
  };

  return {
    workers: slots.length,
    verdicts: async (subjects) => (await run('verdicts', subjects)) as PolicyVerdict[],
    rules: async (texts) => (await run('rules', texts)) as string[][],
    spans: async (text) => (await run('spans', [text]))[0] as SecretSpan[],
    file: async (job) => (await run('file', [job]))[0] as FileJudged,
    async close() {
      const all = slots.splice(0);
      for (const slot of all) slot.dead = true;
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}

/**
 * How many workers an ingest of `bytes` gets: the cores the machine leaves idle (its number of cores less
 * its load average over the last minute, rounded; at most 4), none for a short ingest (under
 * {@link POOL_MIN_BYTES}). On a busy machine workers only add their start-up and messages to the
 * work, so there are none.
 */
export function poolSize(
  bytes: number,
  wanted?: number,
  machine = { cores: availableParallelism(), load: loadavg()[0] ?? 0 },
): number {
  if (wanted !== undefined) return Math.max(0, Math.floor(wanted));
  if (bytes < POOL_MIN_BYTES) return 0;
  return Math.min(4, Math.max(0, Math.round(machine.cores - machine.load)));
}
