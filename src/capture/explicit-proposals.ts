/**
 * The memory proposals an assistant wrote in a session, in `pull`'s formats (`ingest/proposals.ts`),
 * held to what is unmistakably a proposal, since an answer quotes JSON and uses headings for other
 * reasons: `<memory>` blocks and ```memory fences anywhere; JSON only when the whole message is
 * proposals (bare or one fence), each with a title or a type and no chat `role`; Markdown sections
 * only when every heading of the message carries proposal fields. Plain text is never a proposal.
 * A `<memory>` block inside another code fence is an example, not a proposal. Pure.
 */
import { isEngramError } from '../errors.js';
import { parseProposals, type Proposal, type ProposalFormat } from '../ingest/proposals.js';

export interface ExplicitProposals {
  format: Exclude<ProposalFormat, 'text'>;
  proposals: Proposal[];
}

function wholeJson(text: string): unknown {
  const fenced = /^```[ \t]*json[^\n]*\n([\s\S]*?)\n```$/i.exec(text);
  try {
    return JSON.parse(fenced?.[1] ?? text);
  } catch {
    return undefined;
  }
}

function jsonAccepted(text: string, proposals: readonly Proposal[]): boolean {
  const value = wholeJson(text);
  if (value === undefined) return false;
  const container = value as Record<string, unknown> | null;
  const listed = Array.isArray(value) ? value : container?.proposals ?? container?.items ?? container?.memories;
  const objects = (Array.isArray(listed) ? listed : [value]) as unknown[];
  const chat = objects.some((o) => typeof o === 'object' && o !== null && 'role' in o);
  return !chat && proposals.every((p) => p.title !== undefined || p.type !== undefined);
}

/**
 * The proposals `text` holds, or undefined when it holds none.
 *
 * @example
 * explicitProposals('Done.\n<memory title="Deploys">We deploy on Fridays</memory>')?.proposals.length; // 1
 */
export function explicitProposals(text: string): ExplicitProposals | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let parsed: ReturnType<typeof parseProposals>;
  try {
    parsed = parseProposals(trimmed);
  } catch (error) {
    if (isEngramError(error)) return undefined;
    throw error;
  }
  const { format, proposals } = parsed;
  // A `<memory>` block inside a code fence is an example being shown, not a proposal: only the
  // blocks outside fences (and ```memory fences themselves) count.
  if (format === 'blocks') {
    const unfenced = trimmed.replace(/^[ \t]*```(?![ \t]*memory\b)[^\n]*\n[\s\S]*?^[ \t]*```[ \t]*$/gm, '');
    if (unfenced !== trimmed) return unfenced.trim() === '' ? undefined : explicitProposals(unfenced);
  }
  if (format === 'text' || proposals.length === 0) return undefined;
  if (format === 'json' && !jsonAccepted(trimmed, proposals)) return undefined;
  if (format === 'sections') {
    const headings = trimmed.match(/^#{1,6}[ \t]+\S/gm)?.length ?? 0;
    if (!trimmed.startsWith('#') || headings !== proposals.length) return undefined;
  }
  return { format, proposals };
}
