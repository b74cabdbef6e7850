/**
 * KOAS's metrics collector (§6): per tool, calls, errors, total / average / p95 latency and the
 * last call; and the server's uptime. Shared by every session of one server.
 */

/** Latencies kept per tool for the p95 (the most recent ones). */
const WINDOW = 1000;

export interface ToolMetrics {
  tool_name: string;
  call_count: number;
  error_count: number;
  total_latency_ms: number;
  avg_latency_ms: number;
  p95_latency_ms: number;
  last_call_at: string | null;
}

interface Entry {
  calls: number;
  errors: number;
  totalMs: number;
  recent: number[];
  lastCallAt: string | null;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export class MetricsCollector {
  private readonly tools = new Map<string, Entry>();
  readonly startedAt: Date;

  constructor(private readonly clock: () => Date = () => new Date()) {
    this.startedAt = clock();
  }

  record(tool: string, latencyMs: number, error: boolean): void {
    let entry = this.tools.get(tool);
    if (entry === undefined) {
      entry = { calls: 0, errors: 0, totalMs: 0, recent: [], lastCallAt: null };
      this.tools.set(tool, entry);
    }
    entry.calls++;
    if (error) entry.errors++;
    entry.totalMs += latencyMs;
    entry.recent.push(latencyMs);
    if (entry.recent.length > WINDOW) entry.recent.shift();
    entry.lastCallAt = this.clock().toISOString();
  }

  tool(name: string): ToolMetrics {
    const entry = this.tools.get(name) ?? { calls: 0, errors: 0, totalMs: 0, recent: [], lastCallAt: null };
    const sorted = [...entry.recent].sort((a, b) => a - b);
    const rank = Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1);
    const p95 = sorted.length === 0 ? 0 : (sorted[rank] ?? 0);
    return {
      tool_name: name,
      call_count: entry.calls,
      error_count: entry.errors,
      total_latency_ms: round(entry.totalMs),
      avg_latency_ms: entry.calls === 0 ? 0 : round(entry.totalMs / entry.calls),
      p95_latency_ms: round(p95),
      last_call_at: entry.lastCallAt,
    };
  }

  summary() {
    const byTool = [...this.tools.keys()].sort().map((name) => this.tool(name));
    const calls = byTool.reduce((n, t) => n + t.call_count, 0);
    const totalMs = byTool.reduce((n, t) => n + t.total_latency_ms, 0);
    return {
      total_calls: calls,
      total_errors: byTool.reduce((n, t) => n + t.error_count, 0),
      avg_latency_ms: calls === 0 ? 0 : round(totalMs / calls),
      tools_used: byTool.length,
      uptime_seconds: round((this.clock().getTime() - this.startedAt.getTime()) / 1000),
      started_at: this.startedAt.toISOString(),
      by_tool: byTool,
    };
  }
}
