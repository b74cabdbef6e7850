/**
 * Preloaded into a benchmarked command (`node --import dist/bench/rss-report.js …`): at exit it
 * writes the process's peak resident set size, in kilobytes, to the file named by
 * ENGRAM_BENCH_RSS_FILE. The memory suite reads it; no other tool is needed.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.ENGRAM_BENCH_RSS_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
}
