/**
 * Runs one ingest in its own process for the ingest suite, so that its peak RSS is its own:
 * `node dist/bench/ingest-child.js DB SOURCE...` prints the report totals, seconds and peak RSS.
 * INGEST_WORKERS=N sets the number of policy workers (default: ingest's own choice).
 */
import { openEngram } from '../src/index.js';

const [db, ...sources] = process.argv.slice(2);
const engram = await openEngram({ path: db ?? ':memory:' });
const start = process.hrtime.bigint();
const workers = process.env.INGEST_WORKERS === undefined ? undefined : Number(process.env.INGEST_WORKERS);
const report = await engram.ingest({ sources, cwd: process.cwd(), ...(workers === undefined ? {} : { workers }) });
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
engram.close();
process.stdout.write(
  `${JSON.stringify({ totals: report.totals, seconds, max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
