/** Runs a zod schema and turns the first problem into a PARAM_ERROR a person or agent can act on. */
import type { z } from 'zod';
import { EngramError } from '../errors.js';
import { type LightSchema, lightParse, UNSURE } from './light-check.js';

function fieldName(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'input' : path.map(String).join('.');
}

/**
 * Validates `value` against `schema`, returning the parsed value or throwing PARAM_ERROR naming
 * the field, with the valid values as the hint for enums.
 *
 * @example
 * const filter = parseInput(listFilterSchema, { tier: 'ltm' });
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new EngramError('PARAM_ERROR', 'Invalid input');
  const field = fieldName(issue.path);
  if (issue.code === 'invalid_value' && 'values' in issue) {
    const values = (issue.values as unknown[]).map(String);
    const given = (issue as { input?: unknown }).input;
    return fail(field, `Invalid ${field}${given === undefined ? '' : ` '${String(given)}'`}`, {
      hint: `Valid values: ${values.join(', ')}`,
      details: { field, valid: values },
    });
  }
  if (issue.code === 'unrecognized_keys' && 'keys' in issue) {
    const keys = (issue.keys as string[]).join(', ');
    return fail(field, `Unknown field(s): ${keys}`, { details: { fields: issue.keys } });
  }
  return fail(field, `Invalid ${field}: ${issue.message}`, { details: { field } });
}

function fail(
  _field: string,
  message: string,
  options: { hint?: string; details?: Record<string, unknown> },
): never {
  throw new EngramError('PARAM_ERROR', message, options);
}

/**
 * `parseInput` without loading zod when it can: an input the light check vouches for (see
 * `light-check.ts`) is returned as the schema would return it; any other is parsed by the schema
 * `load` gives, which reports its errors exactly as `parseInput` does.
 *
 * @example
 * const load = async () => (await import('./schemas.js')).listFilterSchema;
 * const filter = await parseInputLight(LIGHT_SCHEMAS.list, { tier: 'ltm' }, load);
 */
export async function parseInputLight<S extends z.ZodType>(
  light: LightSchema,
  value: unknown,
  load: () => Promise<S>,
): Promise<z.output<S>> {
  const fast = lightParse(light, value);
  if (fast !== UNSURE) return fast as z.output<S>;
  return parseInput(await load(), value);
}
