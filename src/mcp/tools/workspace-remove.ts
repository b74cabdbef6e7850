/** `memory_workspace_remove`: removes a named workspace; its memories stay. */
import { z } from 'zod';
import { workspaceResult } from './results.js';
import { text } from './params.js';
import { defineTool, DESTRUCTIVE } from './tool.js';

export const memoryWorkspaceRemove = defineTool({
  name: 'memory_workspace_remove',
  title: 'Remove a workspace',
  description: 'Removes a named workspace (not default); its memories stay.',
  input: z.strictObject({ name: text.min(1) }),
  output: z.looseObject({ removed: workspaceResult }),
  annotations: DESTRUCTIVE,
  async run(args, context) {
    return { structured: { ...(await context.engram.removeWorkspace(args.name)) } };
  },
});
