/**
 * basic-memory's knowledge base: a folder of Markdown notes with YAML front matter (title, type,
 * tags, permalink), observations (`- [category] text #tag (context)`) and relations
 * (`- relation_type [[Target]]`). One note is one item: the note is basic-memory's unit (an
 * entity, with its permalink as stable id), its body is kept as written, so nothing of it is lost
 * and a re-import of an edited note updates one item. Observation tags join the note's tags, the
 * categories and every relation (its own name, target and context) are kept in
 * `provenance.import`; relations become links to the notes they name (by title or permalink),
 * under engram's link type when the name is one (`supersedes`, `contradicts`, …), else `related`.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ITEM_TYPES, type ItemType, LINK_TYPES, type LinkType } from '../../types.js';
import type { ImportSource, SourceEntry, SourceLink, SourceRecord } from '../source.js';
import { droppedDates, requirePath, toStringList, toTimestamp } from '../source-values.js';
import { noteSemantics } from './basic-memory-note.js';
import { type FrontMatter, readFrontMatter } from './front-matter.js';

const MAPPING = [
  ['permalink (else the file\'s path)', 'provenance.import.source_id (the item gets an engram id)'],
  ['title (else the file name)', 'title'],
  ['the note\'s Markdown after the front matter', 'content (as written)'],
  ['type (fact, decision, … else note)', 'type (the original kept in provenance.import.type)'],
  ['tags, and #tags of observations', 'tags'],
  ['observation categories', 'provenance.import.categories'],
  ['relations (type [[Target]] (context))', 'links (engram\'s type by name, else related); all in provenance.import.relations'],
  ['created / date, modified / updated (else the file\'s times)', 'created_at, updated_at (UTC)'],
  ['other front matter fields', 'provenance.import.metadata'],
] as const;

/** Front matter fields that are mapped; the others are kept as metadata. */
const MAPPED = new Set(['title', 'type', 'tags', 'permalink', 'created', 'date', 'modified', 'updated']);
const ALIASES: Readonly<Record<string, LinkType>> = { replaces: 'supersedes', based_on: 'derived_from', contradicts_with: 'contradicts' };

interface Note {
  file: string;
  sourceId: string;
  title: string;
  matter: FrontMatter;
  created: Date;
  modified: Date;
}

/**
 * The Markdown files under `dir`, sorted; hidden folders and files (`.git`, `.obsidian`) skipped.
 * Symbolic links are not followed (they may lead out of the project, or in a loop): those to a
 * note or a folder are listed in `links`, relative to `root`.
 */
async function markdownFiles(root: string, dir: string, links: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await markdownFiles(root, path, links)));
    else if (entry.isFile() && /\.md$/i.test(entry.name)) found.push(path);
    else if (entry.isSymbolicLink()) {
      const folder = await stat(path).then((s) => s.isDirectory(), () => false);
      if (folder || /\.md$/i.test(entry.name)) links.push(relative(root, path).split(sep).join('/'));
    }
  }
  return found.sort();
}

function first(value: FrontMatter['fields'][string] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function readNote(root: string, path: string): Promise<Note> {
  const file = relative(root, path).split(sep).join('/');
  const [text, stats] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  const matter = readFrontMatter(text);
  const stem = file.replace(/\.md$/i, '');
  const title = first(matter.fields.title) ?? stem.slice(stem.lastIndexOf('/') + 1);
  const created = stats.birthtimeMs > 0 && stats.birthtimeMs <= stats.mtimeMs ? stats.birthtime : stats.mtime;
  return { file, sourceId: first(matter.fields.permalink) ?? stem, title, matter, created, modified: stats.mtime };
}

function linkType(name: string): LinkType {
  const lower = name.toLowerCase();
  return (LINK_TYPES as readonly string[]).includes(lower) ? (lower as LinkType) : (ALIASES[lower] ?? 'related');
}

function noteEntries(note: Note, ids: ReadonlyMap<string, string>): SourceEntry[] {
  const { fields, body, problems } = note.matter;
  const { observations, relations } = noteSemantics(body);
  const type = first(fields.type);
  const metadata = Object.fromEntries(Object.entries(fields).filter(([k]) => !MAPPED.has(k)));
  const links: SourceLink[] = relations.map((r) => ({
    to: ids.get(r.target.toLowerCase()) ?? r.target,
    type: linkType(r.type),
  }));
  const categories = [...new Set(observations.map((o) => o.category))];
  const record: SourceRecord = {
    sourceId: note.sourceId,
    title: note.title,
    content: body.replace(/^(?:[ \t]*\r?\n)+/, ''),
    type: ITEM_TYPES.includes(type?.toLowerCase() as ItemType) ? (type?.toLowerCase() as ItemType) : 'note',
    tags: [...(toStringList(fields.tags ?? []) ?? []), ...observations.flatMap((o) => o.tags)],
    created_at: toTimestamp(first(fields.created) ?? first(fields.date)) ?? note.created.toISOString(),
    updated_at: toTimestamp(first(fields.modified) ?? first(fields.updated)) ?? note.modified.toISOString(),
    links,
    provenance: {
      file: note.file,
      ...(type === undefined ? {} : { type }),
      ...(categories.length === 0 ? {} : { categories }),
      ...(relations.length === 0 ? {} : { relations }),
      ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    },
  };
  const unread = problems.map((p) => ({
    unmapped: { where: note.sourceId, field: `front matter line ${p.line}`, reason: p.reason },
  }));
  return [{ record }, ...unread, ...droppedDates(note.sourceId, fields, ['created', 'date', 'modified', 'updated'])];
}

async function* readFolder(path: string): AsyncIterable<SourceEntry> {
  requirePath(path, 'folder', 'the folder of basic-memory\'s notes (its project directory)');
  const notes: Note[] = [];
  const links: string[] = [];
  for (const file of await markdownFiles(path, path, links)) notes.push(await readNote(path, file));
  for (const link of links.sort()) {
    const note = /\.md$/i.test(link);
    yield { unmapped: { where: link, ...(note ? {} : { field: 'folder' }), reason: 'a symbolic link, not followed' } };
  }
  // Relations name a note by its title or permalink: resolved once every note is known.
  const ids = new Map<string, string>();
  for (const note of notes) {
    ids.set(note.sourceId.toLowerCase(), note.sourceId);
    if (!ids.has(note.title.toLowerCase())) ids.set(note.title.toLowerCase(), note.sourceId);
  }
  for (const note of notes) yield* noteEntries(note, ids);
}

export const basicMemorySource: ImportSource = {
  name: 'basic-memory',
  expects: 'the folder of basic-memory\'s Markdown notes',
  mapping: MAPPING,
  read: readFolder,
  // A permalink is unique within one project: the project folder (its real path) keeps two apart.
  // A moved folder is another project to a re-import (its notes are created again).
  namespace: async (path) => {
    requirePath(path, 'folder', 'the folder of basic-memory\'s notes (its project directory)');
    return realpath(path);
  },
};
