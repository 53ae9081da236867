import { recordAgentAudit } from "../audit/index.js";
import { newId } from "../ids.js";
import { emit } from "../outbox.js";
import type { OutcomeReactor } from "../outcomeHook.js";
import "./schema.js";

/**
 * Outcome hook: an agent's CODEXPI_REMEMBER becomes a proposal of its project (once per queue
 * item), shown in its thread as a card. A proposal is never given to an agent: only a click of
 * someone with the right keeps it (DESIGN "Memory is curated"), whoever's words it repeats.
 */
export const proposeNoteReactor: OutcomeReactor = async (trx, o, clock) => {
  const request = o.status === "done" ? o.markers.remember : null;
  if (!request) return;
  const c = await trx
    .selectFrom("conversations")
    .select("project_id")
    .where("id", "=", o.conversationId)
    .executeTakeFirst();
  if (!c) return;
  const now = clock.now();
  const id = newId().slice(0, 8);
  const inserted = await trx
    .insertInto("memory_notes")
    .values({
      id,
      project_id: c.project_id,
      channel_id: null,
      text: request.text,
      status: "proposed",
      source: "agent",
      added_by: `agent:${o.conversationId}`,
      decided_by: null,
      conversation_id: o.conversationId,
      queue_id: o.queueId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("queue_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return; // proposed before
  await emit(trx, now, { kind: "memory.proposed", conversationId: o.conversationId, noteId: id });
  await recordAgentAudit(trx, now, o.conversationId, {
    action: "memory.propose",
    target: `memory:${id}`,
    detail: request.text,
  });
};
