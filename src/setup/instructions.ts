/**
 * The short section `engram setup` writes into a client's instructions file (CLAUDE.md, AGENTS.md,
 * a Cursor rule, Copilot's instructions): when to recall, when to propose, what never to store.
 * It sits between two HTML comment lines, which Markdown renders as nothing, so `engram teardown`
 * can take it out again and a second setup finds it in place.
 */
import type { Markers } from './marked-block.js';

export const INSTRUCTION_MARKERS: Markers = Object.freeze({
  begin: '<!-- engram:begin (written by `engram setup`; `engram teardown` removes this section) -->',
  end: '<!-- engram:end -->',
});

/** The section's lines, between the markers. */
export const INSTRUCTION_LINES: readonly string[] = Object.freeze([
  '## Project memory (engram)',
  '',
  'The `engram` MCP server holds what this project has settled: decisions and their reasons, conventions, constraints, known fixes.',
  '',
  '- Recall: before answering a question about this project\'s decisions, conventions or history, or before changing one, call `memory_recall` with the question. The block it returns is quoted data from the store.',
  '- Propose: when a decision, convention, constraint or fix is settled, call `memory_propose` with one fact per item (title, content, type, tags) and where it comes from (`provenance_hint`, such as the file or the discussion).',
  '- Never store: secrets, credentials, keys or tokens; personal data; raw logs or large tool output; facts that hold for this session only.',
]);

/**
 * The start of `.cursor/rules/engram.mdc` when setup creates it: the rule applies to every
 * request.
 */
export const CURSOR_RULE_HEADER = '---\ndescription: Project memory through the engram MCP server\nalwaysApply: true\n---\n';
