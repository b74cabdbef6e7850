/**
 * The command table: names and one-line summaries, with each command's module loaded only when
 * that command runs (or shows its help), so start-up stays light.
 */
import type { Command } from 'commander';
import type { Runner } from '../runner.js';

export interface CommandModule {
  /** Adds the command's arguments, options, help text and action. */
  configure(command: Command, run: Runner): void;
}

export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'init',
    summary: 'Create DIR/.engram/ (memory.db, config.json, .gitignore); safe to re-run',
    load: () => import('./init.js'),
  },
  {
    name: 'put',
    summary: 'Create or update a memory item (by --id, by --layer/--key, or new)',
    load: () => import('./put.js'),
  },
  {
    name: 'get',
    summary: 'Read one item by id, or the newest item at a logical key',
    load: () => import('./get.js'),
  },
  {
    name: 'search',
    summary: 'Full-text search (BM25, Chinese segmentation, LIKE fallback) with the list filters',
    load: () => import('./search.js'),
  },
  {
    name: 'recall',
    summary: 'The token-budgeted injection block for QUERY, ready to paste into any prompt',
    load: () => import('./recall.js'),
  },
  {
    name: 'push',
    summary: 'Ingest --source files (injectable), then recall QUERY on stdout: push QUERY | llm',
    load: () => import('./recall.js'),
  },
  {
    name: 'loop',
    summary: 'Answer QUESTION with an LLM (--llm) over memory: bounded recall–answer loop, traced, replayable',
    load: () => import('./loop.js'),
  },
  {
    name: 'ask',
    summary: 'Ingest PATH... then answer QUESTION with an LLM (--llm) through the recall–answer loop',
    load: () => import('./ask.js'),
  },
  {
    name: 'brief',
    summary: 'The session brief: live memories without a query, long-term first, in a token budget',
    load: () => import('./brief.js'),
  },
  {
    name: 'hook',
    summary: 'Answer an agent client\'s session event (session-start, prompt-submit, stop, ...) from stdin',
    load: () => import('./hook.js'),
  },
  {
    name: 'pull',
    summary: 'Store an LLM answer from stdin: its proposals (JSON, blocks, sections) or one note',
    load: () => import('./pull.js'),
  },
  {
    name: 'chat',
    summary: 'Interactive chat whose answers draw on memory (--llm CMD); /sources, /remember; stdin lines when piped',
    load: () => import('./chat.js'),
  },
  {
    name: 'capture',
    summary: 'Capture an agent session transcript (Claude Code, Codex, OpenCode): one episode per turn',
    load: () => import('./capture.js'),
  },
  {
    name: 'ingest',
    summary: 'Chunk files, directories, globs or stdin into memory with provenance (SHA-256 dedup)',
    load: () => import('./ingest.js'),
  },
  {
    name: 'list',
    summary: 'List items matching every given filter, newest first',
    load: () => import('./list.js'),
  },
  {
    name: 'show',
    summary: 'Show an item with its revision count and links',
    load: () => import('./show.js'),
  },
  {
    name: 'history',
    summary: 'Every version of an item, oldest first',
    load: () => import('./history.js'),
  },
  {
    name: 'delete',
    summary: 'Archive an item; --hard removes it and its derived rows',
    load: () => import('./delete.js'),
  },
  { name: 'stats', summary: 'Store statistics', load: () => import('./stats.js') },
  {
    name: 'status',
    summary: 'The store at a glance: items, review, vectors, consolidation, synced folders, wired clients',
    load: () => import('./status.js'),
  },
  {
    name: 'sync',
    summary: 'Folders kept in sync: sync add PATH, sync [NAME] (incremental), sync --watch, sync list, sync remove',
    load: () => import('./sync.js'),
  },
  {
    name: 'reindex',
    summary: 'Rebuild the full-text index from the items',
    load: () => import('./reindex.js'),
  },
  {
    name: 'embed',
    summary: 'Fill the pending vectors with the configured embedder (--rebuild: re-embed everything)',
    load: () => import('./embed.js'),
  },
  {
    name: 'doctor',
    summary: 'Check schema, full-text index and integrity; non-zero exit on a problem',
    load: () => import('./doctor.js'),
  },
  {
    name: 'export',
    summary: 'Write every item as JSON Lines (one complete item per line) to stdout',
    load: () => import('./export.js'),
  },
  {
    name: 'import',
    summary: 'Import JSON Lines (from `engram export`) upserting by id, or another tool\'s store (--from)',
    load: () => import('./import.js'),
  },
  {
    name: 'review',
    summary: 'List quarantined, contradicted and soon-expiring items waiting for a decision',
    load: () => import('./review.js'),
  },
  {
    name: 'verify',
    summary: 'Verify an item: injectable, quarantine and expiry cleared (secrets still rejected)',
    load: () => import('./decide.js'),
  },
  {
    name: 'reject',
    summary: 'Reject an item held for review: archived, never injected',
    load: () => import('./decide.js'),
  },
  {
    name: 'policy',
    summary: 'Dry-run the write policy on a text (policy check), or list its rules (policy rules)',
    load: () => import('./policy.js'),
  },
  {
    name: 'update',
    summary: 'Change fields of an item by id (content optional): a new version, through the policy',
    load: () => import('./put.js'),
  },
  {
    name: 'forget',
    summary: 'Forget an item: archived, weight 0, never recalled again (history kept)',
    load: () => import('./decide.js'),
  },
  {
    name: 'link',
    summary: 'Link two items: supersedes (hides the target from recall), supports, contradicts, …',
    load: () => import('./link.js'),
  },
  {
    name: 'links',
    summary: 'List the links of an item, both directions',
    load: () => import('./link.js'),
  },
  {
    name: 'cleanup',
    summary: 'Archive expired, stale and weak items, purge old archived ones (dry run unless --apply)',
    load: () => import('./cleanup.js'),
  },
  {
    name: 'suggest',
    summary: 'Recommend items for a task, tags or key prefix (keyword overlap, confidence, recency, weight)',
    load: () => import('./suggest.js'),
  },
  {
    name: 'consolidate',
    summary: 'Fold duplicate STM items into MTM (lossless, no LLM), promote MTM to LTM; --candidates for the host model',
    load: () => import('./consolidate.js'),
  },
  {
    name: 'workspace',
    summary: 'Named workspaces (name → scope, corpus) for the MCP tools: list, add, remove',
    load: () => import('./workspace.js'),
  },
  {
    name: 'serve',
    summary: 'Run the MCP server: stdio (default) or Streamable HTTP (--http); the daily memory_* tools, or --tools all',
    load: () => import('./serve.js'),
  },
  {
    name: 'daemon',
    summary: 'start | stop | status: a warm engram that list, search, recall, get, put, brief and hook run in',
    load: () => import('./daemon.js'),
  },
  {
    name: 'mcp',
    summary: 'MCP client setup: `mcp config --client NAME` prints the configuration snippet',
    load: () => import('./mcp.js'),
  },
  {
    name: 'setup',
    summary: 'Wire engram into an agent client: its MCP server, instructions and hooks (--list: which are installed)',
    load: () => import('./setup.js'),
  },
  {
    name: 'teardown',
    summary: 'Take out of a client exactly what `engram setup` added (backups restored byte for byte)',
    load: () => import('./setup.js'),
  },
];
