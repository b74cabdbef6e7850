/** Named workspaces: a scope and a corpus under a name. */
import type { Workspace } from '../../types.js';

export interface WorkspaceRepository {
  list(): Promise<Workspace[]>;
  get(name: string): Promise<Workspace | undefined>;
  /** Creates or replaces a workspace; resolves true when it was new. */
  put(workspace: Workspace): Promise<boolean>;
  /** Resolves false when there was no such workspace. */
  remove(name: string): Promise<boolean>;
}
