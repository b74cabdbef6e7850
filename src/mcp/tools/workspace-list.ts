/** `memory_workspace_list`: the named workspaces. */
import { z } from 'zod';
import { workspaceResult } from './results.js';
import { defineTool, READ } from './tool.js';

export const memoryWorkspaceList = defineTool({
  name: 'memory_workspace_list',
  title: 'List workspaces',
  description: 'Named workspaces (name → scope, corpus id), for other tools\' workspace parameter.',
  input: z.strictObject({}),
  output: z.looseObject({ workspaces: z.array(workspaceResult) }),
  annotations: READ,
  async run(_args, context) {
    return { structured: { workspaces: await context.engram.workspaces() } };
  },
});
