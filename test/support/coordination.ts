import fs from "node:fs";
import path from "node:path";
import { newId } from "../../src/engine/ids.js";
import type { Database } from "../../src/engine/database.js";
import { testEngine } from "./engine.js";

export const OWNER = "UOWNER";
export const OWNER_ACTOR = { userId: OWNER, isAdmin: false };

/**
 * The seeds' environment: a "Projet source" owned by the owner, and the self project
 * "CodexPi (Self)" (role self) in the `__global_agent__` execution group.
 */
export async function coordinationEnv() {
  const env = await testEngine();
  const source = await env.addProject({ name: "Projet source", ownerId: OWNER });
  const selfDir = path.join(env.dir, "self");
  fs.mkdirSync(selfDir);
  await env.db
    .insertInto("projects")
    .values({
      id: newId(),
      name: "CodexPi (Self)",
      path: selfDir,
      owner_id: OWNER,
      full_access: 1,
      execution_group: "__global_agent__",
      merge_confirmation_required: 0,
      channel_id: null,
      role: "self",
      created_at: env.clock.now(),
    })
    .execute();
  return { ...env, source };
}

/** Finishes an item the way the seeds do: status done and the assistant message only (no hook). */
export async function completedOutput(
  db: Database,
  conversationId: string,
  queueId: string,
  content: string,
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable("prompt_queue")
    .set({ status: "done", finished_at: now })
    .where("id", "=", queueId)
    .execute();
  await db
    .updateTable("conversations")
    .set({ status: "completed", worker_pid: null, updated_at: now })
    .where("id", "=", conversationId)
    .execute();
  await db
    .insertInto("messages")
    .values({
      id: newId(),
      conversation_id: conversationId,
      role: "assistant",
      content,
      metadata: JSON.stringify({ queue_id: queueId }),
      queue_id: queueId,
      created_at: now,
    })
    .execute();
}
