/** `memory_workspace_register`: creates or updates a named workspace. */
import { z } from 'zod';
import { workspaceInputSchema } from '../../workspaces/workspaces.js';
import { workspaceResult } from './results.js';
import { scopeParam, text } from './params.js';
import { defineTool, IDEMPOTENT_WRITE } from './tool.js';

export const memoryWorkspaceRegister = defineTool({
  name: 'memory_workspace_register',
  title: 'Register a workspace',
  description: 'Creates or updates a named workspace (scope defaults to the name); default is protected.',
  // Any name here: the operation's own schema judges it, with its own PARAM_ERROR.
  input: workspaceInputSchema.extend({ name: text.min(1), scope: scopeParam.optional() }),
  output: z.looseObject({ created: z.boolean(), workspace: workspaceResult }),
  annotations: IDEMPOTENT_WRITE,
  async run(args, context) {
    return { structured: { ...(await context.engram.registerWorkspace(args)) } };
  },
});
