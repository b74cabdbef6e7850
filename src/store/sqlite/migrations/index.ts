/** Every migration, in order. The last one's version is the schema version this code speaks. */
import { MIGRATION_0001 } from './0001-initial.js';
import { MIGRATION_0002 } from './0002-fulltext.js';
import { MIGRATION_0003 } from './0003-quarantine.js';
import { MIGRATION_0004 } from './0004-corpus.js';
import { MIGRATION_0005 } from './0005-dedup.js';
import { MIGRATION_0006 } from './0006-live-tier.js';
import { MIGRATION_0007 } from './0007-workspaces.js';
import { MIGRATION_0008 } from './0008-live-memories.js';
import { MIGRATION_0009 } from './0009-corpus-roots.js';
import { MIGRATION_0010 } from './0010-strict-dedup.js';
import { MIGRATION_0011 } from './0011-secure-delete.js';
import { MIGRATION_0012 } from './0012-vector-rows.js';
import { MIGRATION_0013 } from './0013-synced-folders.js';
import { MIGRATION_0014 } from './0014-live-by-recency.js';
import type { Migration } from './migration.js';

export const MIGRATIONS: readonly Migration[] = [
  MIGRATION_0001,
  MIGRATION_0002,
  MIGRATION_0003,
  MIGRATION_0004,
  MIGRATION_0005,
  MIGRATION_0006,
  MIGRATION_0007,
  MIGRATION_0008,
  MIGRATION_0009,
  MIGRATION_0010,
  MIGRATION_0011,
  MIGRATION_0012,
  MIGRATION_0013,
  MIGRATION_0014,
];

export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
