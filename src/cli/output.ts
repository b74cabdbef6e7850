/**
 * The only writer to stdout in engram. JSON for agents (the default when stdout is not a
 * terminal), readable text for people; errors and warnings go to stderr.
 */
import type { Writable } from 'node:stream';
import type { CandidateGroup } from '../engram.js';
import type { EngramError } from '../errors.js';
import type { MemoryItem, MemoryLink, Revision } from '../types.js';
import type { CommandOutput, View } from './context.js';

export type OutputFormat = 'json' | 'text';

export interface Output {
  readonly format: OutputFormat;
  write(output: CommandOutput): Promise<void>;
  error(error: EngramError, verbose: boolean): void;
  warn(message: string): void;
  info(message: string): void;
  progress(message: string): void;
}

export interface OutputOptions {
  format: OutputFormat;
  /** True when the format was asked for (flag or ENGRAM_FORMAT), not inferred from the terminal. */
  explicit: boolean;
  quiet: boolean;
  color: boolean;
  stdout: Writable;
  stderr: Writable;
}

type Paint = (text: string) => string;
interface Palette {
  id: Paint;
  dim: Paint;
  bold: Paint;
  red: Paint;
  yellow: Paint;
}

const PLAIN: Palette = { id: String, dim: String, bold: String, red: String, yellow: String };

async function palette(color: boolean): Promise<Palette> {
  if (!color) return PLAIN;
  const { default: pc } = await import('picocolors');
  return { id: pc.cyan, dim: pc.dim, bold: pc.bold, red: pc.red, yellow: pc.yellow };
}

function preview(item: MemoryItem, width = 72): string {
  const text = (item.title || item.content).replace(/\s+/g, ' ').trim();
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function itemLine(item: MemoryItem, p: Palette): string {
  const address = [item.layer, item.task_id, item.step_id, item.key]
    .filter((v) => v !== null)
    .join('/');
  const flags = `${item.quarantined ? ` ${p.red('[QUARANTINED]')}` : ''}${item.archived ? ` ${p.yellow('[archived]')}` : ''}`;
  return `${p.id(item.id)}  ${item.tier}/${item.type}  v${item.version}  ${p.dim(item.updated_at.slice(0, 19))}${
    address ? `  ${p.dim(address)}` : ''
  }${flags}\n  ${preview(item)}`;
}

function itemBlock(item: MemoryItem, p: Palette): string {
  const rows: [string, unknown][] = [
    ['title', item.title || undefined],
    ['type', item.type],
    ['tier', item.tier],
    ['layer', item.layer],
    ['task', item.task_id],
    ['step', item.step_id],
    ['key', item.key],
    ['scope', item.scope],
    ['corpus', item.corpus_id],
    ['tags', item.tags.length > 0 ? item.tags.join(', ') : undefined],
    ['entities', item.entities.length > 0 ? item.entities.join(', ') : undefined],
    ['source', item.source],
    ['provenance', item.provenance === null ? undefined : JSON.stringify(item.provenance)],
    ['confidence', item.confidence],
    ['validation', item.validation],
    ['weight', item.weight],
    ['injectable', item.injectable],
    ['secrecy', item.secrecy],
    ['version', item.version],
    ['usage', item.usage_count],
    ['created', item.created_at],
    ['updated', item.updated_at],
    ['expires', item.expires_at],
    ['archived', item.archived || undefined],
    ['quarantined', item.quarantined || undefined],
  ];
  const meta = rows
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${p.dim(k.padEnd(11))}${String(v)}`)
    .join('\n');
  return `${p.bold(p.id(item.id))}\n${meta}\n\n${item.content}`;
}

function keyValues(data: Record<string, unknown>, p: Palette): string {
  return Object.entries(data)
    .filter(([k]) => k !== 'errors')
    .map(([k, v]) => {
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
        const inner = Object.entries(v as Record<string, unknown>)
          .map(([ik, iv]) => `  ${ik}: ${String(iv)}`)
          .join('\n');
        return `${p.dim(k)}\n${inner || '  (none)'}`;
      }
      return `${p.dim(k.padEnd(16))}${Array.isArray(v) ? v.join(', ') : String(v)}`;
    })
    .join('\n');
}

function linkLine(link: MemoryLink, p: Palette): string {
  return `  ${p.id(link.src_id)} --${link.type}--> ${p.id(link.dst_id)}`;
}

/** How `init` was told where the store goes, when not by DIR. */
const INIT_SOURCE: Record<string, string> = { flag: ' (--db)', env: ' (ENGRAM_DB)' };

const TEXT_VIEWS: Record<View, (data: Record<string, unknown>, p: Palette) => string> = {
  item: (d, p) => itemBlock(d.item as MemoryItem, p),
  put: (d, p) =>
    `${d.action as string} ${p.id((d.item as MemoryItem).id)} v${(d.item as MemoryItem).version}${
      d.deduplicated ? `  ${p.dim('(the same content was already stored: reinforced)')}` : ''}`,
  list: (d, p) => {
    const items = d.items as MemoryItem[];
    const shown = `${items.length} of ${d.total as number}${(d.offset as number) > 0 ? ` from ${d.offset as number}` : ''}`;
    return items.length === 0
      ? p.dim('no items')
      : `${items.map((i) => itemLine(i, p)).join('\n')}\n${p.dim(shown)}`;
  },
  search: (d, p) => {
    const items = d.items as (MemoryItem & { score: number; explain?: Record<string, number> })[];
    if (items.length === 0) return p.dim('no matches');
    const factors = (i: { explain?: Record<string, number> }) =>
      i.explain === undefined ? '' : `  ${Object.entries(i.explain).map(([k, v]) => `${k}=${v}`).join(' ')}`;
    const lines = items.map((i) => `${itemLine(i, p)}\n  ${p.dim(`score ${i.score}${factors(i)}`)}`);
    return `${lines.join('\n')}\n${p.dim(`${items.length} match${items.length === 1 ? '' : 'es'} (${d.stage as string}${d.fts ? '' : ', LIKE'})`)}`;
  },
  show: (d, p) => {
    const links = d.links as MemoryLink[];
    const life = d.lifecycle as { decay: number; is_stale: boolean; age_days: number } | undefined;
    const decay = life ? `\n${p.dim(`decay      ${life.decay.toFixed(3)} (${life.age_days.toFixed(1)} days since last use)${life.is_stale ? ', stale' : ''}`)}` : '';
    const footer = `\n\n${p.dim(`revisions  ${d.revisions as number}`)}${decay}${
      links.length > 0 ? `\n${p.dim('links')}\n${links.map((l) => linkLine(l, p)).join('\n')}` : ''
    }`;
    return itemBlock(d.item as MemoryItem, p) + footer;
  },
  history: (d, p) =>
    (d.versions as Revision[])
      .map(
        (r) =>
          `${p.bold(`v${r.version}`)}  ${p.dim(r.changed_at)}  ${r.reason}${r.actor ? `  by ${r.actor}` : ''}\n  ${preview(r.item)}`,
      )
      .join('\n'),
  delete: (d, p) =>
    `${d.action as string} ${p.id(d.id as string)}${
      d.removed ? `\n${keyValues({ removed: d.removed }, p)}` : ''
    }`,
  stats: keyValues,
  import: (d, p) => {
    const errors = d.errors as { line: number; error: string; message: string }[];
    const lines = errors.map((e) => `${p.red(`line ${e.line}`)} ${e.error}: ${e.message}`);
    return [keyValues(d, p), ...lines].join('\n');
  },
  doctor: (d, p) => {
    const problems = d.problems as string[];
    const hashes = d.content_hashes as { checked: number; mismatched: string[] };
    const lines = [
      `${p.dim('schema version'.padEnd(16))}${d.schema_version as number}`,
      `${p.dim('full text'.padEnd(16))}${d.full_text ? 'FTS5' : 'unavailable (LIKE)'}`,
      `${p.dim('tokenizer'.padEnd(16))}${(d.fts_tokenizer as string | null) ?? 'unknown'}`,
      `${p.dim('items / indexed'.padEnd(16))}${d.items as number} / ${d.indexed as number}`,
      `${p.dim('integrity'.padEnd(16))}${(d.integrity as string[]).join('; ')}`,
      `${p.dim('content hashes'.padEnd(16))}${hashes.checked} checked, ${hashes.mismatched.length} mismatched`,
    ];
    const verdict = problems.length === 0 ? 'ok' : problems.map((m) => `${p.red('problem')} ${m}`).join('\n');
    return `${lines.join('\n')}\n${verdict}`;
  },
  policy: (d, p) => {
    const matches = d.matches as { rule: string; action: string; excerpt: string }[];
    const verdict = d.verdict === 'accept' ? 'accept' : p.yellow(d.verdict as string);
    return [verdict, ...matches.map((m) => `  ${p.bold(m.rule)} (${m.action})  ${p.dim(m.excerpt)}`)].join('\n');
  },
  rules: (d, p) =>
    (d.rules as { id: string; action: string; description: string }[])
      .map((r) => `${p.bold(r.id.padEnd(34))} ${r.action.padEnd(10)} ${r.description}`)
      .join('\n'),
  review: (d, p) => {
    const possible = d.possible_contradictions as { items: [MemoryItem, MemoryItem]; differs_in: string[] }[];
    const section = (title: string, items: MemoryItem[], extra: (i: MemoryItem) => string = () => '') =>
      `${p.bold(title)} (${items.length})${items.map((i) => `\n${itemLine(i, p)}${extra(i)}`).join('')}`;
    return [
      section('quarantined', d.quarantined as MemoryItem[], (i) =>
        `\n  ${p.dim(`rules ${((i as MemoryItem & { policy_rules: string[] }).policy_rules).join(', ') || '(unknown)'}; expires ${i.expires_at ?? 'never'}`)}`),
      section('contradicted', d.contradicted as MemoryItem[]),
      section(`expiring within ${d.within_hours as number}h`, d.expiring as MemoryItem[], (i) => `\n  ${p.dim(`expires ${i.expires_at ?? ''}`)}`),
      `${p.bold('possible contradictions')} (${possible.length})${possible
        .map((c) => `\n${p.yellow(`differs in: ${c.differs_in.join(', ')}`)}\n${itemLine(c.items[0], p)}\n${itemLine(c.items[1], p)}`)
        .join('')}`,
    ].join('\n\n');
  },
  ingest: (d, p) => {
    type Row = { path: string; status: string; reason?: string; note?: string; chunks: number; archived: number };
    const files = d.files as Row[];
    const t = d.totals as Record<string, number>;
    const mark: Record<string, (s: string) => string> = {
      failed: p.red, partial: p.red, skipped: p.yellow, unchanged: p.dim,
    };
    const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const lines = files.map((f) => {
      const detail = [
        f.chunks > 0 ? plural(f.chunks, 'chunk') : '',
        f.status === 'removed' ? `${plural(f.archived, 'chunk')} archived` : '',
        f.reason ?? '',
        f.note ?? '',
      ]
        .filter((x) => x !== '')
        .join('; ');
      return `${(mark[f.status] ?? String)(f.status.padEnd(9))} ${f.path}${detail ? `  ${p.dim(detail)}` : ''}`;
    });
    const more = `${t.partial ? `, ${t.partial} partial` : ''}${t.removed ? `, ${t.removed} removed` : ''}`;
    const summary = `${d.dry_run ? 'dry run: ' : ''}${t.files} files: ${t.ingested} ingested, ${t.unchanged} unchanged${more}, ${t.skipped} skipped, ${t.failed} failed; ${t.chunks} chunks, ${t.bytes} bytes`;
    return [...lines, p.bold(summary)].join('\n');
  },
  workspaces: (d, p) => {
    const rows = d.workspaces as { name: string; scope: string; corpus_id: string; description: string }[];
    const verb = d.removed ? 'removed ' : d.created === true ? 'created ' : d.created === false ? 'updated ' : '';
    return rows
      .map((w) => `${verb}${p.bold(w.name)}  scope=${w.scope}${w.corpus_id ? ` corpus=${w.corpus_id}` : ''}${w.description ? `  ${p.dim(w.description)}` : ''}`)
      .join('\n');
  },
  pull: (d, p) => {
    type Entry = { index: number; status: string; id?: string; title: string; reason?: string; deduplicated?: true };
    const items = d.items as Entry[];
    const note = (i: Entry) => (i.reason ? `  ${p.dim(i.reason)}` : i.deduplicated ? `  ${p.dim('(already stored: reinforced)')}` : '');
    return [
      ...items.map((i) => `${i.status.padEnd(11)} ${i.id ? p.id(i.id) : '-'.padEnd(16)}  ${i.title || p.dim('(untitled)')}${note(i)}`),
      p.dim(`${d.proposals as number} proposal(s) as ${d.format as string}: ${d.stored as number} stored, ${d.quarantined as number} quarantined, ${d.rejected as number} rejected`),
    ].join('\n');
  },
  cleanup: (d, p) => {
    const archive = d.archive as { id: string; title: string; reasons: string[] }[];
    const purge = d.purge as { id: string; title: string; archived_days: number }[];
    const verb = d.applied ? ['archived', 'purged'] : ['would archive', 'would purge'];
    return [
      ...archive.map((e) => `${verb[0]} ${p.id(e.id)}  ${e.reasons.join(', ')}  ${p.dim(e.title)}`),
      ...purge.map((e) => `${verb[1]} ${p.id(e.id)}  archived ${e.archived_days} days  ${p.dim(e.title)}`),
      p.dim(`${archive.length} to archive, ${purge.length} to purge${d.applied ? '' : ' (dry run: add --apply)'}`),
    ].join('\n');
  },
  suggest: (d, p) => {
    const list = d.suggestions as { id: string; title: string; score: number; reasons: string[] }[];
    if (list.length === 0) return p.dim('no suggestions');
    return list.map((s) => `${p.id(s.id)}  ${s.score}  ${s.title}\n  ${p.dim(s.reasons.join(', ') || 'no strong reason')}`).join('\n');
  },
  consolidate: (d, p) => {
    const clusters = d.clusters as {
      result_id: string; winner: string; kind: string; members: string[]; type: string; source: string | null;
      refused?: { verdict: string; rules: string[] };
    }[];
    const promotions = d.promotions as { id: string; reasons: string[] }[];
    const verb = d.dry_run ? 'would fold' : 'folded';
    const folded = clusters.filter((c) => c.refused === undefined);
    return [
      ...folded.map((c) => `${verb} ${c.members.length} ${c.type} items (${c.kind}s${c.source ? ` from ${c.source}` : ''}; the text of ${
        p.id(c.winner)} kept) into ${p.id(c.result_id)}`),
      ...clusters.filter((c) => c.refused !== undefined).map((c) => {
        const outcome = c.refused?.verdict === 'reject' ? 'rejected' : 'quarantined';
        const members = c.members.map((m) => p.id(m)).join(', ');
        return `${p.yellow('not folded')} ${members}: the merged item would be ${outcome} by the policy (${c.refused?.rules.join(', ')})`;
      }),
      ...promotions.map((x) => `${d.dry_run ? 'would promote' : 'promoted'} ${p.id(x.id)} to ltm (${x.reasons.join(', ')})`),
      p.dim(`${d.candidates as number} stm candidates, ${folded.length} fold(s), ${promotions.length} promotion(s); related items are left`
        + ' apart (`engram consolidate --candidates` offers them to your model)'),
    ].join('\n');
  },
  candidates: (d, p) => {
    const groups = [...(d.extract as CandidateGroup[]), ...(d.merge as CandidateGroup[])];
    if (groups.length === 0) return p.dim('nothing to consolidate yet');
    return groups.map((g) => `${g.kind.padEnd(7)} ${g.item_ids.length} items${g.source ? ` from ${g.source}` : ''}: ${g.item_ids.join(' ')}`).join('\n');
  },
  links: (d, p) => {
    const links = d.links as MemoryLink[];
    return links.length === 0 ? p.dim('no links') : links.map((l) => linkLine(l, p).trimStart()).join('\n');
  },
  decision: (d, p) => `${d.action as string} ${p.id(d.id as string)} v${(d.item as MemoryItem).version}`,
  init: (d, p) =>
    `${d.created ? 'Initialised' : 'Already initialised'} ${p.bold(d.path as string)}${INIT_SOURCE[d.source as string] ?? ''}\n${p.dim('tokenizer')} ${d.fts_tokenizer as string}`,
};

function writeChunk(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

/** Creates the output for one CLI run. */
export function createOutput(options: OutputOptions): Output {
  const { stdout, stderr } = options;
  return {
    format: options.format,
    async write(output) {
      if (output.kind === 'lines') {
        let buffer = '';
        for await (const line of output.lines) {
          buffer += `${line}\n`;
          if (buffer.length >= 65536) {
            await writeChunk(stdout, buffer);
            buffer = '';
          }
        }
        if (buffer !== '') await writeChunk(stdout, buffer);
        return;
      }
      if (output.kind === 'block' && !(options.explicit && options.format === 'json')) {
        if (output.text !== '') await writeChunk(stdout, output.text);
        return;
      }
      if (options.format === 'json') {
        await writeChunk(stdout, `${JSON.stringify({ ok: true, ...output.data })}\n`);
        return;
      }
      if (output.kind === 'block') return;
      const p = await palette(options.color);
      await writeChunk(stdout, `${TEXT_VIEWS[output.view](output.data, p)}\n`);
    },
    error(error, verbose) {
      if (options.format === 'json') {
        const payload: Record<string, unknown> = { ...error.toJSON() };
        if (verbose && error.cause !== undefined)
          payload.cause = String((error.cause as Error)?.stack ?? error.cause);
        stderr.write(`${JSON.stringify(payload)}\n`);
        return;
      }
      const rules = Array.isArray(error.details.rules)
        ? (error.details.rules as { rule: string; excerpt: string }[]).map((r) => `\n  ${r.rule}: ${r.excerpt}`).join('')
        : '';
      const hint = `${rules}${error.hint === undefined ? '' : `\n  hint: ${error.hint}`}`;
      const cause
        = verbose && error.cause !== undefined
          ? `\n${String((error.cause as Error)?.stack ?? error.cause)}`
          : '';
      stderr.write(`engram: error[${error.code}]: ${error.message}${hint}${cause}\n`);
    },
    warn(message) {
      if (!options.quiet) stderr.write(`engram: warning: ${message}\n`);
    },
    info(message) {
      if (!options.quiet) stderr.write(`engram: ${message}\n`);
    },
    progress(message) {
      if (!options.quiet && (stderr as { isTTY?: boolean }).isTTY === true) stderr.write(`\r\x1b[2K${message}`);
    },
  };
}
