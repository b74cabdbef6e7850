/** `memory_palace_get`: one item with where it sits in the palace, and its links. */
import { z } from 'zod';
import { itemResult } from './results.js';
import { itemIdParam } from './params.js';
import { defineTool, READ } from './tool.js';

export const memoryPalaceGet = defineTool({
  name: 'memory_palace_get',
  title: 'Locate a memory in the palace',
  description: 'One item with its place (workspace, tier, type, tags) and its links.',
  input: z.strictObject({ id: itemIdParam }),
  output: z.looseObject({
    item: itemResult,
    location: z.looseObject({ workspace: z.string().nullable(), tier: z.string(), type: z.string() }),
  }),
  annotations: READ,
  async run(args, context) {
    const shown = await context.engram.show(args.id, { secrecy: context.secrecy });
    const home = (await context.engram.workspaces()).find((w) => w.scope === shown.item.scope);
    const location = {
      workspace: home?.name ?? null,
      scope: shown.item.scope,
      tier: shown.item.tier,
      type: shown.item.type,
      tags: shown.item.tags,
    };
    return { structured: { item: shown.item, location, links: shown.links } };
  },
});
