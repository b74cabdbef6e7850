/**
 * The hot commands' input schemas as the light check describes them (see `light-check.ts`).
 * Generated from the zod schemas by `node dist/scripts/build-light-schemas.js` after a build;
 * do not edit: `test/light-schemas.test.ts` fails when this file and the schemas disagree.
 */
import type { LightSchema } from './light-check.js';

type Names = 'list' | 'get' | 'put' | 'update' | 'search' | 'recall';

export const LIGHT_SCHEMAS: Readonly<Record<Names, LightSchema>> = {
  list: {
    kind: 'object',
    fields: {
      layer: { kind: 'optional', of: { kind: 'enum', values: ['project', 'feature', 'run'] } },
      type: {
        kind: 'optional',
        of: {
          kind: 'enum',
          values: ['fact', 'decision', 'definition', 'constraint', 'pattern', 'todo', 'pointer', 'note'],
        },
      },
      tier: { kind: 'optional', of: { kind: 'tier' } },
      task_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      step_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      key: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      key_prefix: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      tags: {
        kind: 'optional',
        of: { kind: 'array', of: { kind: 'string', max: 200 }, max: 1000 },
      },
      scope: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      archived: { kind: 'optional', of: { kind: 'enum', values: ['exclude', 'only', 'include'] } },
      quarantined: { kind: 'optional', of: { kind: 'enum', values: ['exclude', 'only', 'include'] } },
      since: { kind: 'optional', of: { kind: 'timestamp' } },
      until: { kind: 'optional', of: { kind: 'timestamp' } },
      sort: { kind: 'optional', of: { kind: 'enum', values: ['updated', 'created'] } },
      limit: { kind: 'optional', of: { kind: 'number', int: true, min: 1, max: 100000 } },
      offset: { kind: 'optional', of: { kind: 'number', int: true, min: 0 } },
    },
  },
  get: {
    kind: 'union',
    of: [
      {
        kind: 'object',
        fields: { id: { kind: 'string', min: 1, max: 200, pattern: '^[^\\s\\p{Cc}]+$', flags: 'u' } },
      },
      {
        kind: 'object',
        fields: {
          layer: { kind: 'enum', values: ['project', 'feature', 'run'] },
          key: { kind: 'string', max: 1000, min: 1 },
          task_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
          step_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
        },
      },
    ],
  },
  put: {
    kind: 'object',
    fields: {
      title: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      content: { kind: 'string' },
      type: {
        kind: 'optional',
        of: {
          kind: 'enum',
          values: ['fact', 'decision', 'definition', 'constraint', 'pattern', 'todo', 'pointer', 'note'],
        },
      },
      tier: { kind: 'optional', of: { kind: 'tier' } },
      layer: { kind: 'optional', of: { kind: 'enum', values: ['project', 'feature', 'run'] } },
      task_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      step_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      key: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      scope: { kind: 'optional', of: { kind: 'string', max: 1000, min: 1 } },
      corpus_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      tags: {
        kind: 'optional',
        of: { kind: 'array', of: { kind: 'string', max: 200 }, max: 1000 },
      },
      entities: {
        kind: 'optional',
        of: { kind: 'array', of: { kind: 'string', max: 200 }, max: 1000 },
      },
      source: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      provenance: { kind: 'optional', of: { kind: 'record' } },
      confidence: { kind: 'optional', of: { kind: 'number', min: 0, max: 1 } },
      validation: {
        kind: 'optional',
        of: { kind: 'enum', values: ['unverified', 'verified', 'contradicted'] },
      },
      weight: { kind: 'optional', of: { kind: 'number', min: 0, max: 1000000 } },
      injectable: { kind: 'optional', of: { kind: 'boolean' } },
      secrecy: { kind: 'optional', of: { kind: 'enum', values: ['S0', 'S2', 'S3'] } },
      expires_at: { kind: 'optional', of: { kind: 'nullable', of: { kind: 'timestamp' } } },
      id: {
        kind: 'optional',
        of: { kind: 'string', min: 1, max: 200, pattern: '^[^\\s\\p{Cc}]+$', flags: 'u' },
      },
      if_version: { kind: 'optional', of: { kind: 'number', int: true, min: 0 } },
      merge_similar: { kind: 'optional', of: { kind: 'boolean' } },
      supersedes: {
        kind: 'optional',
        of: {
          kind: 'array',
          of: { kind: 'string', min: 1, max: 200, pattern: '^[^\\s\\p{Cc}]+$', flags: 'u' },
          max: 100,
        },
      },
    },
  },
  update: {
    kind: 'object',
    fields: {
      title: { kind: 'optional', of: { kind: 'optional', of: { kind: 'string', max: 1000 } } },
      content: { kind: 'optional', of: { kind: 'string' } },
      type: {
        kind: 'optional',
        of: {
          kind: 'optional',
          of: {
            kind: 'enum',
            values: ['fact', 'decision', 'definition', 'constraint', 'pattern', 'todo', 'pointer', 'note'],
          },
        },
      },
      tier: { kind: 'optional', of: { kind: 'optional', of: { kind: 'tier' } } },
      layer: {
        kind: 'optional',
        of: { kind: 'optional', of: { kind: 'enum', values: ['project', 'feature', 'run'] } },
      },
      task_id: { kind: 'optional', of: { kind: 'optional', of: { kind: 'string', max: 1000 } } },
      step_id: { kind: 'optional', of: { kind: 'optional', of: { kind: 'string', max: 1000 } } },
      key: { kind: 'optional', of: { kind: 'optional', of: { kind: 'string', max: 1000 } } },
      scope: {
        kind: 'optional',
        of: { kind: 'optional', of: { kind: 'string', max: 1000, min: 1 } },
      },
      corpus_id: { kind: 'optional', of: { kind: 'optional', of: { kind: 'string', max: 1000 } } },
      tags: {
        kind: 'optional',
        of: {
          kind: 'optional',
          of: { kind: 'array', of: { kind: 'string', max: 200 }, max: 1000 },
        },
      },
      entities: {
        kind: 'optional',
        of: {
          kind: 'optional',
          of: { kind: 'array', of: { kind: 'string', max: 200 }, max: 1000 },
        },
      },
      source: { kind: 'optional', of: { kind: 'optional', of: { kind: 'string', max: 1000 } } },
      provenance: { kind: 'optional', of: { kind: 'optional', of: { kind: 'record' } } },
      confidence: { kind: 'optional', of: { kind: 'optional', of: { kind: 'number', min: 0, max: 1 } } },
      validation: {
        kind: 'optional',
        of: {
          kind: 'optional',
          of: { kind: 'enum', values: ['unverified', 'verified', 'contradicted'] },
        },
      },
      weight: {
        kind: 'optional',
        of: { kind: 'optional', of: { kind: 'number', min: 0, max: 1000000 } },
      },
      injectable: { kind: 'optional', of: { kind: 'optional', of: { kind: 'boolean' } } },
      secrecy: {
        kind: 'optional',
        of: { kind: 'optional', of: { kind: 'enum', values: ['S0', 'S2', 'S3'] } },
      },
      expires_at: {
        kind: 'optional',
        of: { kind: 'optional', of: { kind: 'nullable', of: { kind: 'timestamp' } } },
      },
      if_version: { kind: 'optional', of: { kind: 'number', int: true, min: 0 } },
    },
  },
  search: {
    kind: 'object',
    fields: {
      layer: { kind: 'optional', of: { kind: 'enum', values: ['project', 'feature', 'run'] } },
      type: {
        kind: 'optional',
        of: {
          kind: 'enum',
          values: ['fact', 'decision', 'definition', 'constraint', 'pattern', 'todo', 'pointer', 'note'],
        },
      },
      tier: { kind: 'optional', of: { kind: 'tier' } },
      task_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      step_id: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      key: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      key_prefix: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      tags: {
        kind: 'optional',
        of: { kind: 'array', of: { kind: 'string', max: 200 }, max: 1000 },
      },
      scope: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      archived: { kind: 'optional', of: { kind: 'enum', values: ['exclude', 'only', 'include'] } },
      quarantined: { kind: 'optional', of: { kind: 'enum', values: ['exclude', 'only', 'include'] } },
      since: { kind: 'optional', of: { kind: 'timestamp' } },
      until: { kind: 'optional', of: { kind: 'timestamp' } },
      query: { kind: 'string', max: 10000 },
      k: { kind: 'optional', of: { kind: 'number', int: true, min: 1, max: 1000 } },
      injectable: { kind: 'optional', of: { kind: 'boolean' } },
      sort: {
        kind: 'optional',
        of: { kind: 'enum', values: ['relevance', 'updated', 'confidence', 'recency', 'mixed'] },
      },
      explain: { kind: 'optional', of: { kind: 'boolean' } },
      secrecy: { kind: 'optional', of: { kind: 'enum', values: ['S0', 'S2', 'S3'] } },
      mode: { kind: 'optional', of: { kind: 'enum', values: ['lexical', 'semantic', 'hybrid'] } },
    },
  },
  recall: {
    kind: 'object',
    fields: {
      query: { kind: 'string', max: 10000 },
      budget: { kind: 'optional', of: { kind: 'number', int: true, min: 1, max: 1000000 } },
      mode: { kind: 'optional', of: { kind: 'enum', values: ['inject', 'catalog', 'hybrid'] } },
      header: { kind: 'optional', of: { kind: 'boolean' } },
      tier: { kind: 'optional', of: { kind: 'tier' } },
      type: {
        kind: 'optional',
        of: {
          kind: 'enum',
          values: ['fact', 'decision', 'definition', 'constraint', 'pattern', 'todo', 'pointer', 'note'],
        },
      },
      scope: { kind: 'optional', of: { kind: 'string', max: 1000 } },
      tags: {
        kind: 'optional',
        of: { kind: 'array', of: { kind: 'string', max: 200 }, max: 1000 },
      },
      secrecy: { kind: 'optional', of: { kind: 'enum', values: ['S0', 'S2', 'S3'] } },
      search_mode: { kind: 'optional', of: { kind: 'enum', values: ['lexical', 'semantic', 'hybrid'] } },
      limit: { kind: 'optional', of: { kind: 'number', int: true, min: 1, max: 100 } },
      min_score: { kind: 'optional', of: { kind: 'number', min: 0, max: 1000000 } },
      exclude_ids: {
        kind: 'optional',
        of: { kind: 'array', of: { kind: 'string', max: 100 }, max: 10000 },
      },
    },
  },
};
