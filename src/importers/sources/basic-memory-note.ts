/**
 * basic-memory's semantic lines in a note's body: observations (`- [category] text #tag (context)`)
 * and relations (`- relation_type [[Target]] (context)`), and `[[Target]]` links anywhere else
 * (basic-memory's `links_to`). Task list items (`- [ ]`, `- [x]`) are not observations. Pure.
 */

export interface Observation {
  category: string;
  text: string;
  tags: string[];
  context?: string;
}

export interface Relation {
  type: string;
  target: string;
  context?: string;
}

export interface NoteSemantics {
  observations: Observation[];
  /** Relation lines, then inline links (type `links_to`), each (type, target) once. */
  relations: Relation[];
}

const OBSERVATION = /^\s*[-*]\s+\[([^\]]+)\]\s+(.+)$/;
const RELATION = /^\s*[-*]\s+([\p{L}\p{N}_][\p{L}\p{N}_ -]*?)\s+\[\[([^\]]+)\]\](?:\s*\((.*)\))?\s*$/u;
const WIKI_LINK = /\[\[([^\]|]+)(?:\|[^\]]*)?\]\]/g;
const TAG = /(?:^|\s)#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu;
const CONTEXT = /\s*\(([^()]*)\)\s*$/;
const TASK_BOXES = new Set([' ', 'x', 'X']);

function observation(line: string): Observation | undefined {
  const match = OBSERVATION.exec(line);
  if (match === null || TASK_BOXES.has(match[1] as string)) return undefined;
  let text = (match[2] as string).trim();
  const context = CONTEXT.exec(text);
  if (context !== null) text = text.slice(0, context.index).trim();
  const tags = [...text.matchAll(TAG)].map((m) => m[1] as string);
  const category = (match[1] as string).trim();
  return { category, text, tags, ...(context === null ? {} : { context: context[1] as string }) };
}

/** The observations and relations of a note's body (fenced code blocks skipped). */
export function noteSemantics(body: string): NoteSemantics {
  const observations: Observation[] = [];
  const relations: Relation[] = [];
  const seen = new Set<string>();
  const add = (relation: Relation) => {
    const key = `${relation.type}\u0000${relation.target}`;
    if (seen.has(key)) return;
    seen.add(key);
    relations.push(relation);
  };
  const inline: string[] = [];
  let fence: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker !== undefined) {
      fence = fence === undefined ? marker : fence === marker ? undefined : fence;
      continue;
    }
    if (fence !== undefined) continue;
    const relation = RELATION.exec(line);
    if (relation !== null) {
      const context = relation[3];
      const [type, target] = [(relation[1] as string).trim(), (relation[2] as string).trim()];
      add({ type, target, ...(context === undefined ? {} : { context }) });
      continue;
    }
    const found = observation(line);
    if (found !== undefined) observations.push(found);
    for (const link of line.matchAll(WIKI_LINK)) inline.push((link[1] as string).trim());
  }
  for (const target of inline) add({ type: 'links_to', target });
  return { observations, relations };
}
