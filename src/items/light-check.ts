/**
 * The light check: a zod-free fast path for the hot commands' input schemas (list, search,
 * recall, get, put). A schema is described as plain data (`LightSchema`, derived from the zod
 * schema by `scripts/light-schema.ts` into `light-schemas.ts`); `lightParse` accepts an input only
 * when it is sure the zod schema accepts it and gives the same output, and answers `UNSURE`
 * otherwise, so that the caller runs the zod schema itself (and its error messages) instead.
 */
import { TIER_ALIASES, TIERS } from '../types.js';
import { isCanonicalTimestamp } from '../util/time.js';

/** A zod schema as the light check understands it; `defer` is whatever it does not. */
export type LightSchema
  = | { kind: 'string'; min?: number; max?: number; pattern?: string; flags?: string }
    | { kind: 'number'; int?: true; min?: number; max?: number }
    | { kind: 'boolean' }
    | { kind: 'unknown' }
    | { kind: 'enum'; values: readonly string[] }
  /** `schemas.ts`'s tier: a tier, or one of its aliases, given as the tier. */
    | { kind: 'tier' }
  /** `schemas.ts`'s timestamp: a string `isCanonicalTimestamp` accepts. */
    | { kind: 'timestamp' }
    | { kind: 'array'; of: LightSchema; min?: number; max?: number }
  /** A record of string keys and unknown values. */
    | { kind: 'record' }
    | { kind: 'optional'; of: LightSchema }
    | { kind: 'nullable'; of: LightSchema }
  /** A strict object (unknown keys refused). */
    | { kind: 'object'; fields: Readonly<Record<string, LightSchema>> }
    | { kind: 'union'; of: readonly LightSchema[] }
    | { kind: 'defer' };

/** The light check's answer when it cannot vouch for an input. */
export const UNSURE: unique symbol = Symbol('unsure');

const patterns = new Map<string, RegExp>();

function pattern(source: string, flags = ''): RegExp {
  const key = `${flags}/${source}`;
  let re = patterns.get(key);
  if (re === undefined) {
    re = new RegExp(source, flags);
    patterns.set(key, re);
  }
  return re;
}

const TIER_SET: ReadonlySet<unknown> = new Set(TIERS);

/** A plain object whose own properties are all enumerable data properties with string keys. */
function plainEntries(value: unknown): [string, unknown][] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  if (Object.getOwnPropertySymbols(value).length > 0) return undefined;
  // zod's strict objects see inherited enumerable keys too (a polluted Object.prototype).
  for (const key in value) if (!Object.hasOwn(value, key)) return undefined;
  const descriptors = Object.getOwnPropertyDescriptors(value);
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(descriptors)) {
    const d = descriptors[key] as PropertyDescriptor;
    if (!d.enumerable || !('value' in d) || key === '__proto__') return undefined;
    entries.push([key, d.value]);
  }
  return entries;
}

function inRange(n: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || n >= min) && (max === undefined || n <= max);
}

/** True when the described zod schema refuses a missing value (a required field left out). */
function refusesUndefined(schema: LightSchema): boolean {
  if (schema.kind === 'nullable') return refusesUndefined(schema.of);
  return !['optional', 'unknown', 'union', 'defer'].includes(schema.kind);
}

/**
 * True when the described zod schema refuses `value` for sure: a strict object given an unknown
 * key or missing a required one (a union's later option counts only then).
 */
function surelyRefuses(schema: LightSchema, value: unknown): boolean {
  if (schema.kind !== 'object') return false;
  const entries = plainEntries(value);
  if (entries === undefined) return false;
  const keys = new Set(entries.map(([k]) => k));
  if (entries.some(([k]) => !Object.hasOwn(schema.fields, k))) return true;
  return Object.entries(schema.fields).some(([k, field]) => refusesUndefined(field) && !keys.has(k));
}

function objectParse(fields: Readonly<Record<string, LightSchema>>, value: unknown): unknown {
  const entries = plainEntries(value);
  if (entries === undefined) return UNSURE;
  const out: Record<string, unknown> = {};
  for (const [key, given] of entries) {
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (field === undefined) return UNSURE;
    const parsed = lightParse(field, given);
    if (parsed === UNSURE) return UNSURE;
    out[key] = parsed;
  }
  for (const [key, field] of Object.entries(fields)) {
    if (field.kind !== 'optional' && !Object.hasOwn(out, key)) return UNSURE;
  }
  return out;
}

/**
 * The output the described zod schema gives for `value`, or `UNSURE` when the light check cannot
 * be sure the zod schema accepts it with that output.
 *
 * @example
 * lightParse({ kind: 'tier' }, 'semantic'); // 'mtm'
 */
export function lightParse(schema: LightSchema, value: unknown): unknown {
  switch (schema.kind) {
    case 'string':
      if (typeof value !== 'string' || !inRange(value.length, schema.min, schema.max)) return UNSURE;
      if (schema.pattern !== undefined && !pattern(schema.pattern, schema.flags).test(value)) return UNSURE;
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || !inRange(value, schema.min, schema.max)) return UNSURE;
      return schema.int === true && !Number.isSafeInteger(value) ? UNSURE : value;
    case 'boolean':
      return typeof value === 'boolean' ? value : UNSURE;
    case 'unknown':
      return value;
    case 'enum':
      return typeof value === 'string' && schema.values.includes(value) ? value : UNSURE;
    case 'tier': {
      const tier = typeof value === 'string' ? (TIER_ALIASES[value] ?? value) : value;
      return TIER_SET.has(tier) ? tier : UNSURE;
    }
    case 'timestamp':
      return typeof value === 'string' && isCanonicalTimestamp(value) ? value : UNSURE;
    case 'array': {
      if (!Array.isArray(value) || !inRange(value.length, schema.min, schema.max)) return UNSURE;
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const parsed = lightParse(schema.of, value[i]);
        if (parsed === UNSURE) return UNSURE;
        out.push(parsed);
      }
      return out;
    }
    case 'record': {
      const entries = plainEntries(value);
      if (entries === undefined || entries.some(([, v]) => v === undefined)) return UNSURE;
      return Object.fromEntries(entries);
    }
    case 'optional':
      return value === undefined ? undefined : lightParse(schema.of, value);
    case 'nullable':
      return value === null ? null : lightParse(schema.of, value);
    case 'object':
      return objectParse(schema.fields, value);
    case 'union':
      for (const option of schema.of) {
        const parsed = lightParse(option, value);
        if (parsed !== UNSURE) return parsed;
        // A later option's output counts only if zod refuses this one for sure.
        if (!surelyRefuses(option, value)) return UNSURE;
      }
      return UNSURE;
    case 'defer':
      return UNSURE;
  }
}
