import fs from "node:fs";
import type { Kysely } from "kysely";
import type { DB } from "../schema.js";
import type {} from "./schema.js"; // the orchestrations tables

/**
 * Where the agent of a conversation works (the worker's hook). An orchestration's conversation
 * works in its git worktree, never in the project's main checkout, which only the merge touches;
 * any other conversation works in its project's directory. Null when the orchestration has no
 * worktree on disk: the item must then fail, not fall back to the main checkout.
 */
export async function agentWorkdir(db: Kysely<DB>, conversationId: string, projectPath: string): Promise<string | null> {
  const o = await db.selectFrom("orchestrations").select("worktree_path").where("conversation_id", "=", conversationId).executeTakeFirst();
  if (!o) return projectPath;
  return o.worktree_path && fs.existsSync(o.worktree_path) ? o.worktree_path : null;
}
