import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compactSchema, listedTool, servedTools } from './tool-list.js';
import { TOOLS } from './tools/index.js';

test('compactSchema drops what accepts nothing more or less, and keeps every constraint', () => {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      // Field names that are also keywords stay: they are names here.
      properties: { type: 'object', properties: {}, additionalProperties: {} },
      maximum: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      $schema: { type: 'string', maxLength: 10 },
      map: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
      keys: { type: 'object', propertyNames: { type: 'string', pattern: '^a' } },
      low: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: 5 },
    },
    required: ['properties'],
    additionalProperties: false,
    definitions: { properties: { type: 'object', additionalProperties: {} } },
  };
  assert.deepEqual(compactSchema(schema), {
    type: 'object',
    properties: {
      properties: { type: 'object' },
      maximum: { type: 'integer', minimum: 0 },
      $schema: { type: 'string', maxLength: 10 },
      map: { type: 'object', additionalProperties: { type: 'number' } },
      keys: { type: 'object', propertyNames: { type: 'string', pattern: '^a' } },
      low: { type: 'integer', maximum: 5 },
    },
    required: ['properties'],
    additionalProperties: false,
    definitions: { properties: { type: 'object' } },
  });
});

/** Every object schema in a JSON Schema, with its path. */
function objects(schema: unknown, path = '$'): [string, Record<string, unknown>][] {
  if (typeof schema !== 'object' || schema === null) return [];
  const here: [string, Record<string, unknown>][] = (schema as { type?: unknown }).type === 'object'
    ? [[path, schema as Record<string, unknown>]]
    : [];
  return [...here, ...Object.entries(schema).flatMap(([k, v]) => objects(v, `${path}.${k}`))];
}

test('every listed input schema is as strict as its zod schema: no object takes an unknown key', () => {
  for (const tool of TOOLS) {
    const { inputSchema, outputSchema, annotations } = listedTool(tool);
    assert.equal(inputSchema.additionalProperties, false, tool.name);
    assert.equal(JSON.stringify(inputSchema).includes('$ref'), false, `${tool.name}: inputs are inline`);
    for (const [path, schema] of objects(inputSchema)) {
      // Open by design: a proposal (judged by the operation), update's fields, write's provenance.
      const open = ['memory_propose', 'memory_update', 'memory_write'].includes(tool.name) && path !== '$';
      if (!open) assert.equal(schema.additionalProperties, false, `${tool.name} ${path}`);
    }
    assert.equal(outputSchema.type, 'object');
    assert.equal(JSON.stringify(outputSchema).includes('$schema'), false);
    assert.equal(annotations.openWorldHint, false);
    if ('readOnlyHint' in annotations) {
      assert.equal(tool.annotations.readOnlyHint, true, tool.name);
    } else {
      assert.deepEqual(
        [annotations.destructiveHint, annotations.idempotentHint ?? false],
        [tool.annotations.destructiveHint, tool.annotations.idempotentHint],
        tool.name,
      );
    }
  }
});

test('servedTools lists the tools given, in their order, and finds them by name', () => {
  const served = servedTools(TOOLS.slice(0, 2));
  assert.deepEqual(served.list.map((t) => t.name), TOOLS.slice(0, 2).map((t) => t.name));
  assert.equal(served.byName.get(TOOLS[1]?.name ?? ''), TOOLS[1]);
  assert.equal(served.byName.has(TOOLS[2]?.name ?? ''), false);
});
