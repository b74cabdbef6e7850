/**
 * Derives the light check's description of a zod schema (`LightSchema`, see
 * `src/items/light-check.ts`) from the schema's own definition, so that the hot schemas are
 * declared once, in zod. Whatever this does not recognise exactly (a transform, a default, a
 * refinement other than the canonical timestamp, a check it has no rule for) becomes `defer`:
 * the light check never vouches for it and the zod schema decides.
 * `scripts/build-light-schemas.ts` writes the result to `src/items/light-schemas.ts`;
 * `test/light-schemas.test.ts` fails when that file is stale.
 */
import type { z } from 'zod';
import { tierSchema } from '../src/items/schemas.js';
import type { LightSchema } from '../src/items/light-check.js';
import { isCanonicalTimestamp } from '../src/util/time.js';

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
}

interface CheckDef {
  check: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  pattern?: RegExp;
  fn?: unknown;
}

const DEFER: LightSchema = { kind: 'defer' };

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((c) => c._zod.def);

function lengths(checks: CheckDef[]): { min?: number; max?: number } | undefined {
  const out: { min?: number; max?: number } = {};
  for (const c of checks) {
    if (c.check === 'min_length' && c.minimum !== undefined) out.min = Math.max(out.min ?? 0, c.minimum);
    else if (c.check === 'max_length' && c.maximum !== undefined) out.max = Math.min(out.max ?? Infinity, c.maximum);
    else return undefined;
  }
  return out;
}

function deriveString(def: Def): LightSchema {
  const checks = checksOf(def);
  const timestamp = checks.length === 1 && checks[0]?.check === 'custom' && checks[0].fn === isCanonicalTimestamp;
  if (timestamp) return { kind: 'timestamp' };
  const regexes = checks.filter((c) => c.check === 'string_format' && c.format === 'regex' && c.pattern !== undefined);
  if (regexes.length > 1) return DEFER;
  const range = lengths(checks.filter((c) => !regexes.includes(c)));
  if (range === undefined) return DEFER;
  const re = regexes[0]?.pattern;
  if (re !== undefined && (re.global || re.sticky)) return DEFER;
  return { kind: 'string', ...range, ...(re === undefined ? {} : { pattern: re.source, flags: re.flags }) };
}

function deriveNumber(def: Def): LightSchema {
  const out: { kind: 'number'; int?: true; min?: number; max?: number } = { kind: 'number' };
  for (const c of checksOf(def)) {
    if (c.check === 'number_format' && c.format === 'safeint') out.int = true;
    else if (c.check === 'greater_than' && c.inclusive === true && typeof c.value === 'number') out.min = Math.max(out.min ?? -Infinity, c.value);
    else if (c.check === 'less_than' && c.inclusive === true && typeof c.value === 'number') out.max = Math.min(out.max ?? Infinity, c.value);
    else return DEFER;
  }
  return out;
}

function deriveObject(def: Def): LightSchema {
  const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
  if (catchall !== 'never' || checksOf(def).length > 0) return DEFER;
  const shape = def.shape as Record<string, z.ZodType>;
  return { kind: 'object', fields: Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, deriveLightSchema(v)])) };
}

/**
 * The light description of `schema`: exact where it is recognised, `defer` elsewhere.
 *
 * @example
 * deriveLightSchema(z.strictObject({ limit: z.number().int().min(1).optional() }));
 */
export function deriveLightSchema(schema: z.ZodType): LightSchema {
  if (schema === tierSchema) return { kind: 'tier' };
  const def = defOf(schema);
  const plain = checksOf(def).length === 0;
  switch (def.type) {
    case 'string':
      return deriveString(def);
    case 'number':
      return deriveNumber(def);
    case 'boolean':
      return plain ? { kind: 'boolean' } : DEFER;
    case 'unknown':
      return plain ? { kind: 'unknown' } : DEFER;
    case 'enum': {
      const values = Object.values(def.entries as Record<string, unknown>);
      return plain && values.every((v) => typeof v === 'string') ? { kind: 'enum', values: values as string[] } : DEFER;
    }
    case 'optional':
    case 'nullable':
      return plain ? { kind: def.type, of: deriveLightSchema(def.innerType as z.ZodType) } : DEFER;
    case 'array': {
      const range = lengths(checksOf(def));
      return range === undefined ? DEFER : { kind: 'array', of: deriveLightSchema(def.element as z.ZodType), ...range };
    }
    case 'record': {
      const key = defOf(def.keyType);
      const value = defOf(def.valueType);
      const simple = plain && key.type === 'string' && checksOf(key).length === 0 && value.type === 'unknown' && checksOf(value).length === 0;
      return simple ? { kind: 'record' } : DEFER;
    }
    case 'object':
      return deriveObject(def);
    case 'union':
      return plain && def.inclusive !== false
        ? { kind: 'union', of: (def.options as z.ZodType[]).map(deriveLightSchema) }
        : DEFER;
    default:
      return DEFER;
  }
}

/** The schemas of the hot commands' operations, by the name `LIGHT_SCHEMAS` gives each. */
export async function hotSchemas(): Promise<Record<string, z.ZodType>> {
  const items = await import('../src/items/schemas.js');
  const { searchInputSchema } = await import('../src/retrieval/search-schema.js');
  const { recallInputSchema } = await import('../src/retrieval/recall-schema.js');
  return {
    list: items.listFilterSchema,
    get: items.getQuerySchema,
    put: items.putInputSchema,
    update: items.updateInputSchema,
    search: searchInputSchema,
    recall: recallInputSchema,
  };
}

/** A value as TypeScript source: single quotes, bare keys, two-space indents. */
export function toSource(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, '\\\'')}'`;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object')) return `[${value.map((v) => toSource(v)).join(', ')}]`;
    return `[\n${value.map((v) => `${inner}${toSource(v, inner)},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const flat = Object.entries(value).map(([k, v]) => `${k}: ${toSource(v, inner)}`).join(', ');
    if (!flat.includes('\n') && indent.length + flat.length < 90) return `{ ${flat} }`;
    const entries = Object.entries(value).map(([k, v]) => {
      const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : toSource(k);
      return `${inner}${key}: ${toSource(v, inner)},`;
    });
    return `{\n${entries.join('\n')}\n${indent}}`;
  }
  return String(value);
}

/** The source of `src/items/light-schemas.ts` for the current zod schemas. */
export async function lightSchemasSource(): Promise<string> {
  const derived = Object.fromEntries(Object.entries(await hotSchemas()).map(([k, s]) => [k, deriveLightSchema(s)]));
  return [
    '/**',
    ' * The hot commands\' input schemas as the light check describes them (see `light-check.ts`).',
    ' * Generated from the zod schemas by `node dist/scripts/build-light-schemas.js` after a build;',
    ' * do not edit: `test/light-schemas.test.ts` fails when this file and the schemas disagree.',
    ' */',
    'import type { LightSchema } from \'./light-check.js\';',
    '',
    'type Names = \'list\' | \'get\' | \'put\' | \'update\' | \'search\' | \'recall\';',
    '',
    `export const LIGHT_SCHEMAS: Readonly<Record<Names, LightSchema>> = ${toSource(derived)};`,
    '',
  ].join('\n');
}
