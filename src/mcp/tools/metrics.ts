/** `memory_metrics`: per-tool calls, errors and latency, and the limiter's state; never rate-limited. */
import { z } from 'zod';
import { text } from './params.js';
import { defineTool, READ } from './tool.js';

const toolMetrics = z.looseObject({
  tool_name: z.string(),
  call_count: z.number(),
  error_count: z.number(),
  total_latency_ms: z.number(),
  avg_latency_ms: z.number(),
  p95_latency_ms: z.number(),
  last_call_at: z.string().nullable(),
});

export const memoryMetrics = defineTool({
  name: 'memory_metrics',
  title: 'Server metrics',
  description:
    'Calls, errors, latency (average, p95) per tool (or tool_name only), rate limiter, uptime. Never rate-limited.',
  input: z.strictObject({ tool_name: text.optional() }),
  output: z.looseObject({}),
  annotations: READ,
  rateLimited: false,
  async run(args, context) {
    if (args.tool_name !== undefined) {
      return { structured: { metrics: toolMetrics.parse(context.metrics.tool(args.tool_name)) } };
    }
    return { structured: { ...context.metrics.summary(), rate_limiter: context.limiter.state(context.sessionKey) } };
  },
});
