/**
 * Named workspaces: a name pointing at a scope (and a corpus), so agents and people address a
 * part of the store by name. `default` (scope `project`) is in every store and protected.
 */
import { z } from 'zod';
import type { OperationContext } from '../context.js';
import { EngramError, FIX_HINTS } from '../errors.js';
import { requireCleanFields } from '../items/field-policy.js';
import { parseInput } from '../items/parse-input.js';
import { textSchema } from '../items/schemas.js';
import type { Workspace } from '../types.js';

/** The protected workspace every store has (scope `project`). */
export const DEFAULT_WORKSPACE = 'default';

/** `workspace add` / `memory_workspace_register`: a name and where it points (scope defaults to the name). */
export const workspaceInputSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { message: 'must be 1-64 letters, digits, dots, dashes or underscores' }),
  scope: textSchema.min(1).optional(),
  corpus_id: textSchema.optional(),
  description: textSchema.optional(),
});

export type WorkspaceInput = z.input<typeof workspaceInputSchema>;

/** What registering a workspace did: `created` false when it updated an existing one. */
export interface RegisterWorkspaceResult {
  created: boolean;
  workspace: Workspace;
}

/** The workspace a removal took out of the store (its items stay). */
export interface RemoveWorkspaceResult {
  removed: Workspace;
}

/**
 * The workspace called `name`; NOT_FOUND, naming the known ones, for an unknown one.
 *
 * @example
 * const { scope } = await resolveWorkspace(ctx, 'default'); // 'project'
 */
export async function resolveWorkspace(ctx: OperationContext, name: string): Promise<Workspace> {
  return requireWorkspace(ctx, name);
}

async function requireWorkspace({ store }: OperationContext, name: string): Promise<Workspace> {
  const workspace = await store.workspaces.get(name);
  if (workspace === undefined) {
    const known = (await store.workspaces.list()).map((w) => w.name).join(', ');
    throw new EngramError('NOT_FOUND', `Unknown workspace: ${name}`, {
      hint: `Known workspaces: ${known}. ${FIX_HINTS.register_workspace}`,
      fix: 'register_workspace',
      details: { workspace: name },
    });
  }
  return workspace;
}

/** Named workspaces, `default` first among equals (sorted by name). */
export async function listWorkspaces(ctx: OperationContext): Promise<Workspace[]> {
  return await ctx.store.workspaces.list();
}

/**
 * Creates or updates a workspace (fields left out keep their stored value); `default` is
 * protected. Records a `workspace` event.
 *
 * @example
 * await registerWorkspace(ctx, { name: 'billing', scope: 'team/billing' });
 */
export async function registerWorkspace(
  ctx: OperationContext,
  input: WorkspaceInput,
): Promise<RegisterWorkspaceResult> {
  const parsed = parseInput(workspaceInputSchema, input);
  if (parsed.name === DEFAULT_WORKSPACE) {
    throw new EngramError('PARAM_ERROR', 'The default workspace is protected', {
      hint: 'Register a workspace under another name.',
    });
  }
  const { store } = ctx;
  return store.transaction(async () => {
    const at = ctx.now();
    const existing = await store.workspaces.get(parsed.name);
    const workspace: Workspace = {
      name: parsed.name,
      scope: parsed.scope ?? existing?.scope ?? parsed.name,
      corpus_id: parsed.corpus_id ?? existing?.corpus_id ?? '',
      description: parsed.description ?? existing?.description ?? '',
      created_at: existing?.created_at ?? at,
      updated_at: at,
    };
    const { name, scope, corpus_id, description } = workspace;
    requireCleanFields({ name, scope, corpus_id, description });
    const created = await store.workspaces.put(workspace);
    const details = { ...workspace, created };
    await store.history.addEvent({ item_id: null, action: 'workspace', actor: ctx.actor, at, details });
    return { created, workspace };
  });
}

/** Removes a workspace (never `default`); its items stay. Records a `workspace_remove` event. */
export async function removeWorkspace(ctx: OperationContext, name: string): Promise<RemoveWorkspaceResult> {
  if (name === DEFAULT_WORKSPACE) {
    throw new EngramError('PARAM_ERROR', 'The default workspace is protected', {
      hint: 'Only workspaces you registered can be removed.',
    });
  }
  const { store } = ctx;
  return store.transaction(async () => {
    const removed = await requireWorkspace(ctx, name);
    await store.workspaces.remove(name);
    const event = { item_id: null, action: 'workspace_remove', actor: ctx.actor, at: ctx.now(), details: { name } };
    await store.history.addEvent(event);
    return { removed };
  });
}
