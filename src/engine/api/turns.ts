import type { Kernel } from "../kernel.js";
import { EngineError } from "../errors.js";
import type { Selectable } from "kysely";
import type { MessagesTable, QueueItem } from "../schema.js";
import type { Actor } from "../projects/index.js";
import { canSeeConversationId } from "../projects/index.js";
import { answerOf } from "../conversations/index.js";
import { decisionOfItem, type DecisionView } from "../coordination/index.js";

// Reads the CLI used to write as SQL itself (`codexpi answer`, `codexpi stop`): the engine answers
// them, behind the same visibility rule as every other read.

/** A conversation's latest turn: its item (a steered one went into an earlier turn), answer, open decision. */
export interface LatestTurn {
  item: QueueItem | null;
  answer: Selectable<MessagesTable> | null;
  decision: DecisionView | null;
}

async function assertVisible(kernel: Kernel, actor: Actor, conversationId: string): Promise<void> {
  if (!(await canSeeConversationId(kernel.db, actor, conversationId)))
    throw new EngineError("not_found", "conversation_not_found", { name: conversationId });
}

export async function latestTurn(kernel: Kernel, actor: Actor, conversationId: string): Promise<LatestTurn> {
  await assertVisible(kernel, actor, conversationId);
  const item =
    (await kernel.db
      .selectFrom("prompt_queue")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("status", "<>", "steered") // it went into an earlier turn, whose answer is the one
      .orderBy("seq", "desc")
      .executeTakeFirst()) ?? null;
  if (!item) return { item, answer: null, decision: null };
  return {
    item,
    answer: (await answerOf(kernel.db, item.id)) ?? null,
    decision: await decisionOfItem(kernel.db, item.id),
  };
}

export async function runningItems(kernel: Kernel, actor: Actor, conversationId: string): Promise<string[]> {
  await assertVisible(kernel, actor, conversationId);
  const rows = await kernel.db
    .selectFrom("prompt_queue")
    .select("id")
    .where("conversation_id", "=", conversationId)
    .where("status", "=", "running")
    .execute();
  return rows.map((r) => r.id);
}
