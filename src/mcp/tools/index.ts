/**
 * Every `memory_*` MCP tool (KOAS §3, mem-context's forget and review), one file each, in the
 * order `tools/list` gives them. No memory logic lives in a tool: each is a thin `run` over the
 * facade, its input derived from the operation's schema where the operation has one.
 */
import { memoryConsolidate } from './consolidate.js';
import { memoryForget } from './forget.js';
import { memoryLink } from './link.js';
import { memoryMetrics } from './metrics.js';
import { memoryPalaceGet } from './palace-get.js';
import { memoryPalaceList } from './palace-list.js';
import { memoryPropose } from './propose.js';
import { memoryRead } from './read.js';
import { memoryRecall } from './recall.js';
import { memoryReview } from './review.js';
import { memorySearch } from './search.js';
import { memorySessionInject } from './session-inject.js';
import { memorySessionStore } from './session-store.js';
import { memoryStats } from './stats.js';
import type { Tool } from './tool.js';
import { memoryUpdate } from './update.js';
import { memoryWorkspaceList } from './workspace-list.js';
import { memoryWorkspaceRegister } from './workspace-register.js';
import { memoryWorkspaceRemove } from './workspace-remove.js';
import { memoryWrite } from './write.js';

export type { Tool, ToolAnnotations, ToolContext, ToolOutput } from './tool.js';

export const TOOLS: readonly Tool[] = [
  memoryRecall,
  memorySearch,
  memoryPropose,
  memoryWrite,
  memoryRead,
  memoryUpdate,
  memoryLink,
  memoryForget,
  memoryReview,
  memoryConsolidate,
  memoryStats,
  memorySessionInject,
  memorySessionStore,
  memoryWorkspaceList,
  memoryWorkspaceRegister,
  memoryWorkspaceRemove,
  memoryMetrics,
  memoryPalaceList,
  memoryPalaceGet,
];
