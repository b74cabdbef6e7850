/**
 * KOAS's rate limiter (§5.5): a token bucket per key (calls per minute, with a burst
 * allowance), a cap on memory proposals per turn, and a maximum content length. A turn ends at
 * each `memory_session_inject` or after an idle gap, and the proposal count starts again — the
 * reset the tool this follows forgot. The key is the client: `stdio`, or over HTTP the bearer
 * token's digest or the remote address, so that opening more sessions buys no more calls.
 */
import { EngramError } from '../errors.js';

export interface RateLimits {
  enabled: boolean;
  callsPerMinute: number;
  /** The bucket holds `callsPerMinute × burst` calls. */
  burst: number;
  proposalsPerTurn: number;
  maxContentLength: number;
  /** A gap this long without calls starts a new turn. */
  idleTurnMs: number;
}

export const DEFAULT_LIMITS: RateLimits = {
  enabled: true,
  callsPerMinute: 60,
  burst: 1.5,
  proposalsPerTurn: 10,
  maxContentLength: 5000,
  idleTurnMs: 120_000,
};

interface Bucket {
  tokens: number;
  refilledAt: number;
  lastCallAt: number;
  turn: number;
  proposals: number;
}

export interface LimiterState {
  enabled: boolean;
  tokens: number;
  max_tokens: number;
  calls_per_minute: number;
  proposals_this_turn: number;
  proposals_limit: number;
  current_turn: number;
  max_content_length: number;
}

function rateLimited(message: string, retryAfterMs: number, details: Record<string, unknown> = {}): EngramError {
  return new EngramError('RATE_LIMITED', message, {
    hint: `Retry after ${Math.ceil(retryAfterMs)} ms.`,
    details: { retry_after_ms: Math.ceil(retryAfterMs), ...details },
  });
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly limits: RateLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  private get capacity(): number {
    return this.limits.callsPerMinute * this.limits.burst;
  }

  private bucket(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      const at = this.now();
      bucket = { tokens: this.capacity, refilledAt: at, lastCallAt: at, turn: 1, proposals: 0 };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Takes one call from `key`'s bucket, or throws RATE_LIMITED with `retry_after_ms`. */
  take(key: string, tool: string): void {
    const bucket = this.bucket(key);
    const at = this.now();
    if (at - bucket.lastCallAt >= this.limits.idleTurnMs) this.startTurn(bucket);
    bucket.lastCallAt = at;
    if (!this.limits.enabled) return;
    const perMs = this.limits.callsPerMinute / 60_000;
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (at - bucket.refilledAt) * perMs);
    bucket.refilledAt = at;
    if (bucket.tokens < 1) {
      throw rateLimited(`Rate limit exceeded for ${tool}`, (1 - bucket.tokens) / perMs, { reason: 'rate_limit_exceeded' });
    }
    bucket.tokens -= 1;
  }

  /** Counts `count` proposals against this turn's cap, or throws RATE_LIMITED. */
  propose(key: string, count: number): void {
    const bucket = this.bucket(key);
    if (!this.limits.enabled) return;
    if (bucket.proposals + count > this.limits.proposalsPerTurn) {
      throw rateLimited(
        `Proposal cap reached: ${bucket.proposals} of ${this.limits.proposalsPerTurn} this turn, ${count} more asked`,
        this.limits.idleTurnMs,
        { reason: 'proposals_per_turn', proposals_this_turn: bucket.proposals, proposals_limit: this.limits.proposalsPerTurn },
      );
    }
    bucket.proposals += count;
  }

  /** Checks a content length against `max_content_length`. */
  checkContent(content: string, field = 'content'): void {
    if (!this.limits.enabled || content.length <= this.limits.maxContentLength) return;
    throw new EngramError('PARAM_ERROR', `${field} is ${content.length} characters, over the ${this.limits.maxContentLength} limit`, {
      hint: 'Split it into smaller memories, or store a pointer to the document.',
      details: { field, length: content.length, max_content_length: this.limits.maxContentLength },
    });
  }

  /** A new turn for `key` (memory_session_inject): the proposal count starts again. */
  newTurn(key: string): number {
    const bucket = this.bucket(key);
    this.startTurn(bucket);
    return bucket.turn;
  }

  /**
   * Forgets every key idle for `idleMs` or more (at least long enough to be full again and on a
   * new turn), so that a long-running server does not keep a bucket per key it ever saw. A key
   * seen again starts as a new one (turn 1). Returns how many were forgotten.
   */
  prune(idleMs: number): number {
    const refillMs = this.capacity / (this.limits.callsPerMinute / 60_000);
    const after = Math.max(idleMs, this.limits.idleTurnMs, Number.isFinite(refillMs) ? refillMs : 0);
    const at = this.now();
    let pruned = 0;
    for (const [key, bucket] of this.buckets) {
      if (at - bucket.lastCallAt >= after) {
        this.buckets.delete(key);
        pruned++;
      }
    }
    return pruned;
  }

  /** How many keys hold a bucket. */
  get size(): number {
    return this.buckets.size;
  }

  private startTurn(bucket: Bucket): void {
    bucket.turn++;
    bucket.proposals = 0;
  }

  state(key: string): LimiterState {
    const bucket = this.bucket(key);
    const perMs = this.limits.callsPerMinute / 60_000;
    const tokens = Math.min(this.capacity, bucket.tokens + (this.now() - bucket.refilledAt) * perMs);
    return {
      enabled: this.limits.enabled,
      tokens: Math.round(tokens * 100) / 100,
      max_tokens: this.capacity,
      calls_per_minute: this.limits.callsPerMinute,
      proposals_this_turn: bucket.proposals,
      proposals_limit: this.limits.proposalsPerTurn,
      current_turn: bucket.turn,
      max_content_length: this.limits.maxContentLength,
    };
  }
}
