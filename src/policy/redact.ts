/**
 * Output-side redaction by secrecy tier (KOAS §5.4). S3 keeps everything; S2 replaces IP
 * addresses, hostnames and hashes; S0 also replaces filesystem paths and e-mail addresses. The
 * replacement is a fixed marker per kind, so the same text always redacts the same way, and it is
 * applied to copies on the way out: stored data never changes.
 */
import type { MemoryItem, Secrecy } from '../types.js';
import { sha256 } from '../util/hash.js';

type Kind = 'email' | 'path' | 'ip' | 'host' | 'hash';

const REDACTED_KINDS: Readonly<Record<Secrecy, ReadonlySet<Kind>>> = Object.freeze({
  S0: new Set<Kind>(['email', 'path', 'ip', 'host', 'hash']),
  S2: new Set<Kind>(['ip', 'host', 'hash']),
  S3: new Set<Kind>(),
});

const MARKERS: Readonly<Record<Kind, string>> = Object.freeze({
  email: '[EMAIL]',
  path: '[PATH]',
  ip: '[IP]',
  host: '[HOST]',
  hash: '[HASH]',
});

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const TLDS
  = 'com|org|net|io|dev|ai|app|cloud|co|fr|de|uk|cn|jp|eu|us|ca|au|ch|be|nl|se|no|es|it|ru|in|br|info|biz|edu|gov|mil|int|local|internal|lan|corp|intranet|home|site|tech|xyz|me|tv|sh|gg|ly|so|to|page';

/**
 * One pass, most specific kind first: an e-mail's domain is part of the e-mail, a path that
 * contains a dot is a path, and a URL keeps its scheme and path while its host is redacted.
 */
const PATTERN = new RegExp(
  [
    '(?<email>[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\\.)+[A-Za-z]{2,})',
    '(?<path>(?<![\\w.:/~@-])(?:~|\\.{1,2})?/(?:[\\w.@%+-]+/)*[\\w.@%+-]*[\\w@%+-]/?|\\b[A-Za-z]:\\\\(?:[^\\s\\\\/:*?"<>|]+\\\\)*(?:[^\\s\\\\/:*?"<>|]*[^\\s\\\\/:*?"<>|.,;])?)',
    `(?<ip>\\b${OCTET}(?:\\.${OCTET}){3}\\b|(?<![\\w:])(?:[0-9A-Fa-f]{1,4}:){1,7}(?::|(?::[0-9A-Fa-f]{1,4}){1,6}|[0-9A-Fa-f]{1,4})(?![\\w:]))`,
    `(?<host>\\blocalhost\\b|\\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+(?:${TLDS})\\b(?![.-]\\w))`,
    '(?<hash>\\b(?=[0-9a-fA-F]*\\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{7,128}\\b)',
  ].join('|'),
  'g',
);

/** An IPv6 candidate is an address only with a hex letter, a `::`, or at least 5 groups (not a time). */
function isIpv6(text: string): boolean {
  if (!text.includes(':') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(text)) return true;
  return /[a-f]/i.test(text) || text.includes('::') || text.split(':').length >= 5;
}

/**
 * Redacts one text for a tier.
 *
 * @example
 * redactText('ssh deploy@10.0.0.7', 'S2'); // 'ssh deploy@[IP]'
 */
export function redactText(text: string, tier: Secrecy): string {
  const kinds = REDACTED_KINDS[tier];
  if (kinds.size === 0) return text;
  return text.replace(PATTERN, (match, ...args) => {
    const groups = args[args.length - 1] as Record<Kind, string | undefined>;
    const kind = (Object.keys(MARKERS) as Kind[]).find((k) => groups[k] !== undefined);
    if (kind === undefined || !kinds.has(kind)) return match;
    if (kind === 'ip' && !isIpv6(match)) return match;
    return MARKERS[kind];
  });
}

function redactValue(value: unknown, tier: Secrecy): unknown {
  if (typeof value === 'string') return redactText(value, tier);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, tier));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, tier)]));
  }
  return value;
}

const nullable = (value: string | null, tier: Secrecy) => (value === null ? null : redactText(value, tier));

/**
 * A redacted copy of an item for output at `tier`; the same object when nothing changes (S3).
 * `content_hash` is recomputed so an exported line stays consistent with its content.
 */
export function redactItem<T extends MemoryItem>(item: T, tier: Secrecy): T {
  if (REDACTED_KINDS[tier].size === 0) return item;
  const content = redactText(item.content, tier);
  return {
    ...item,
    title: redactText(item.title, tier),
    content,
    key: nullable(item.key, tier),
    task_id: nullable(item.task_id, tier),
    step_id: nullable(item.step_id, tier),
    source: nullable(item.source, tier),
    tags: item.tags.map((t) => redactText(t, tier)),
    entities: item.entities.map((e) => redactText(e, tier)),
    provenance: item.provenance === null ? null : (redactValue(item.provenance, tier) as Record<string, unknown>),
    content_hash: content === item.content ? item.content_hash : sha256(content),
  };
}
