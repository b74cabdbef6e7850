/**
 * Writes `src/items/light-schemas.ts` (the light check's description of the hot input schemas)
 * from the compiled zod schemas. Run after `npm run build` when a hot schema changes, then build
 * again: `node dist/scripts/build-light-schemas.js && npm run build`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lightSchemasSource } from './light-schema.js';

writeFileSync(fileURLToPath(new URL('../../src/items/light-schemas.ts', import.meta.url)), await lightSchemasSource());
