/**
 * The light check (src/items/light-check.ts) is sound: over seeded random inputs (valid ones,
 * boundary values, wrong types, unknown keys, tier aliases), whatever it accepts the zod schema
 * accepts too, with a deep-equal output; whatever it does not accept is parsed by zod, with the
 * same errors as before. And `src/items/light-schemas.ts` is what the zod schemas derive to now.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hotSchemas, lightSchemasSource } from '../scripts/light-schema.js';
import { EngramError } from '../src/errors.js';
import { type LightSchema, lightParse, UNSURE } from '../src/items/light-check.js';
import { LIGHT_SCHEMAS } from '../src/items/light-schemas.js';
import { parseInput, parseInputLight } from '../src/items/parse-input.js';
import { TIER_ALIASES, TIERS } from '../src/types.js';
import { seeded } from './adversarial/case.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = 2500;

type Rng = () => number;
const pick = <T>(r: Rng, values: readonly T[]): T => values[Math.floor(r() * values.length)] as T;
const chance = (r: Rng, p: number) => r() < p;
const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

const CHARS = ['a', 'Z', '0', '-', '_', '.', 'é', '中', '😀', 'M', 'E'];
const ODD_CHARS = [' ', '\t', '\n', '\u0000', '\u007f', '\u200b'];

function junk(r: Rng, depth = 0): unknown {
  const leaves: unknown[] = [
    undefined, null, true, false, 0, -0, 1, -1, 1.5, Number.NaN, Infinity, -Infinity, 2 ** 53, 1e6 + 1,
    '', 'x', ' ', 'a b', '\u0000', 'ltm', 'semantic', 'episodic', 'toString', '__proto__', 'constructor',
    '2026-11-22T10:00:00.000Z', '2026-11-22T10:00:00Z', '2026-02-30T10:00:00.000Z', 'last week', 'x'.repeat(1001),
    new Date(0), Object.create(null), Symbol('s'),
  ];
  if (depth > 1 || chance(r, 0.7)) return pick(r, leaves);
  if (chance(r, 0.5)) return Array.from({ length: int(r, 0, 3) }, () => junk(r, depth + 1));
  return Object.fromEntries(Array.from({ length: int(r, 0, 3) }, (_, i) => [`k${i}`, junk(r, depth + 1)]));
}

function validString(r: Rng, schema: Extract<LightSchema, { kind: 'string' }>): string {
  const min = schema.min ?? 0;
  const max = Math.min(schema.max ?? 50, 3000);
  const length = pick(r, [min, max, int(r, min, Math.min(max, min + 20))]);
  let text = '';
  while (text.length < length) {
    const c = chance(r, 0.03) ? pick(r, ODD_CHARS) : pick(r, CHARS);
    text += text.length + c.length <= length ? c : 'a';
  }
  return text;
}

function validNumber(r: Rng, schema: Extract<LightSchema, { kind: 'number' }>): number {
  const min = schema.min ?? -1e6;
  const max = schema.max ?? min + 1e6;
  const options = [min, max, min + (max - min) * r()];
  if (schema.int === true) options.push(int(r, min, Math.min(max, min + 1000)));
  const n = pick(r, options);
  return schema.int === true ? Math.round(n) : n;
}

/** A value built to fit the description: what zod should accept, at its limits often. */
function valid(r: Rng, schema: LightSchema): unknown {
  switch (schema.kind) {
    case 'string':
      return validString(r, schema);
    case 'number':
      return validNumber(r, schema);
    case 'boolean':
      return chance(r, 0.5);
    case 'unknown':
      return junk(r);
    case 'enum':
      return pick(r, schema.values);
    case 'tier':
      return pick(r, [...TIERS, ...Object.keys(TIER_ALIASES)]);
    case 'timestamp':
      return new Date(int(r, 0, 4_000_000_000_000)).toISOString();
    case 'array':
      return Array.from({ length: int(r, schema.min ?? 0, Math.min(schema.max ?? 4, 4)) }, () => valid(r, schema.of));
    case 'record':
      return Object.fromEntries(Array.from({ length: int(r, 0, 3) }, (_, i) => [`p${i}`, junk(r)]));
    case 'optional':
      return chance(r, 0.15) ? undefined : valid(r, schema.of);
    case 'nullable':
      return chance(r, 0.2) ? null : valid(r, schema.of);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(schema.fields)) {
        if (field.kind === 'optional' && chance(r, 0.6)) continue;
        out[key] = valid(r, field);
      }
      return out;
    }
    case 'union':
      return valid(r, pick(r, schema.of));
    case 'defer':
      return junk(r);
  }
}

/** Just past a limit, or the wrong type. */
function near(r: Rng, schema: LightSchema): unknown {
  const inner = schema.kind === 'optional' || schema.kind === 'nullable' ? schema.of : schema;
  if (inner.kind === 'string') {
    return pick(r, [
      'x'.repeat((inner.max ?? 10) + 1), 'x'.repeat(Math.max(0, (inner.min ?? 1) - 1)), `a${pick(r, ODD_CHARS)}b`, 12,
    ]);
  }
  if (inner.kind === 'number') {
    const step = pick(r, [1, 0.5, 1e-9]);
    const [min, max] = [inner.min ?? 0, inner.max ?? 0];
    return pick(r, [max + step, min - step, min + 0.5, String(min), Number.NaN]);
  }
  if (inner.kind === 'array') {
    return pick(r, [Array.from({ length: (inner.max ?? 3) + 1 }, () => 'a'), [junk(r)], new Array<string>(2).fill('a', 1), 'a']);
  }
  if (inner.kind === 'tier' || inner.kind === 'enum') return pick(r, ['LTM', 'forever', 'hasOwnProperty', 1, '']);
  if (inner.kind === 'timestamp') return pick(r, ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000+00:00', '2026-13-01T00:00:00.000Z']);
  return junk(r);
}

function mutate(r: Rng, schema: LightSchema, value: unknown): unknown {
  if (schema.kind === 'union') return mutate(r, pick(r, schema.of), value);
  if (schema.kind !== 'object' || typeof value !== 'object' || value === null) return junk(r);
  const out = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(schema.fields);
  const key = pick(r, keys);
  switch (int(r, 0, 5)) {
    case 0:
      out[pick(r, ['colour', 'Tier', 'query ', 'id', 'layer'])] = junk(r);
      break;
    case 1:
      delete out[key];
      break;
    case 2:
      out[key] = undefined;
      break;
    case 3:
      out[key] = junk(r);
      break;
    default:
      out[key] = near(r, schema.fields[key] as LightSchema);
  }
  if (chance(r, 0.05)) return Object.assign(Object.create({ inherited: 1 }) as object, out);
  if (chance(r, 0.05)) Object.defineProperty(out, 'hidden', { value: 1, enumerable: false });
  return out;
}

function inputs(r: Rng, schema: LightSchema): unknown {
  const base = valid(r, schema);
  const roll = r();
  if (roll < 0.45) return base;
  if (roll < 0.95) return mutate(r, schema, chance(r, 0.3) ? mutate(r, schema, base) : base);
  return junk(r);
}

test('the light schemas file is what the zod schemas derive to', async () => {
  const committed = readFileSync(join(ROOT, 'src', 'items', 'light-schemas.ts'), 'utf8');
  assert.equal(committed, await lightSchemasSource(), 'stale: run `node dist/scripts/build-light-schemas.js && npm run build`');
  // Every hot schema is understood at its top (a top-level defer would send every input to zod).
  for (const [name, light] of Object.entries(LIGHT_SCHEMAS)) assert.notEqual(light.kind, 'defer', name);
});

test('light-accept implies zod accepts with a deep-equal output, for every hot schema', async () => {
  const schemas = await hotSchemas();
  assert.deepEqual(Object.keys(schemas).sort(), Object.keys(LIGHT_SCHEMAS).sort());
  for (const [name, zod] of Object.entries(schemas)) {
    const light = LIGHT_SCHEMAS[name as keyof typeof LIGHT_SCHEMAS];
    const r = seeded(0x5eed + name.length * 7919 + name.charCodeAt(0));
    let accepted = 0;
    let deferredValid = 0;
    let zodRefused = 0;
    for (let run = 0; run < RUNS; run++) {
      const input = inputs(r, light);
      const fast = lightParse(light, input);
      const result = zod.safeParse(input);
      if (!result.success) zodRefused++;
      if (fast === UNSURE) {
        if (result.success) deferredValid++;
        continue;
      }
      accepted++;
      assert.ok(result.success, `${name} run ${run}: the light check accepted what zod refuses: ${String(result.error)}`);
      assert.deepStrictEqual(fast, result.data, `${name} run ${run}: outputs differ`);
    }
    // The runs exercised both sides, and the light check carries most valid inputs.
    assert.ok(accepted > RUNS / 4, `${name}: ${accepted} accepted`);
    assert.ok(zodRefused > RUNS / 10, `${name}: ${zodRefused} refused by zod`);
    assert.ok(deferredValid < accepted / 4, `${name}: ${deferredValid} valid inputs deferred, ${accepted} accepted`);
  }
});

test('a tier alias comes out as its tier, as zod maps it', async () => {
  const { listFilterSchema } = await import('../src/items/schemas.js');
  for (const [alias, tier] of Object.entries(TIER_ALIASES)) {
    assert.deepStrictEqual(lightParse(LIGHT_SCHEMAS.list, { tier: alias }), { tier });
    assert.deepStrictEqual(listFilterSchema.parse({ tier: alias }), { tier });
  }
  assert.equal(lightParse(LIGHT_SCHEMAS.list, { tier: 'toString' }), UNSURE);
  assert.equal(lightParse(LIGHT_SCHEMAS.list, { since: '2026-11-22T10:00:00Z' }), UNSURE);
});

test('an inherited enumerable key (a polluted prototype) is left to zod, which refuses it', async () => {
  const { listFilterSchema } = await import('../src/items/schemas.js');
  const proto = Object.prototype as Record<string, unknown>;
  proto.polluted = 1;
  try {
    assert.equal(listFilterSchema.safeParse({ limit: 5 }).success, false);
    assert.equal(lightParse(LIGHT_SCHEMAS.list, { limit: 5 }), UNSURE);
  } finally {
    delete proto.polluted;
  }
  assert.deepStrictEqual(lightParse(LIGHT_SCHEMAS.list, { limit: 5 }), { limit: 5 });
});

test('an input the light check leaves to zod fails with the same PARAM_ERROR as parseInput', async () => {
  const schemas = await hotSchemas();
  const cases: [keyof typeof LIGHT_SCHEMAS, unknown][] = [
    ['put', { content: 'x', tier: 'forever' }],
    ['put', { content: 'x', colour: 'red' }],
    ['put', { content: 'x', id: 'has space' }],
    ['list', { since: 'last week' }],
    ['list', { limit: 0 }],
    ['get', { id: '' }],
    ['get', { layer: 'project' }],
    ['search', { query: 1 }],
    ['recall', { query: 'q', budget: 1.5 }],
  ];
  for (const [name, input] of cases) {
    const schema = schemas[name] as Parameters<typeof parseInput>[0];
    const expected = (() => {
      try {
        parseInput(schema, input);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    assert.ok(expected instanceof EngramError, `${name}: zod refuses ${JSON.stringify(input)}`);
    await assert.rejects(parseInputLight(LIGHT_SCHEMAS[name], input, async () => schema), (error: unknown) => {
      assert.ok(error instanceof EngramError);
      assert.deepStrictEqual(error.toJSON(), expected.toJSON());
      return true;
    });
  }
});
