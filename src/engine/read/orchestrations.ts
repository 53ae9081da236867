import type { Tx } from "../database.js";
import { orchestrationView, type OrchestrationView } from "../orchestrations/service.js";
import { findOrchestration } from "../orchestrations/store.js";

/** An orchestration as its thread shows it, with the Slack channel it was started from (null: not from Slack). */
export async function orchestrationThreadView(
  db: Tx,
  id: string,
): Promise<{ view: OrchestrationView; channelId: string | null } | null> {
  const row = await findOrchestration(db, id);
  if (!row) return null;
  const project = await db
    .selectFrom("projects")
    .selectAll()
    .where("id", "=", row.project_id)
    .executeTakeFirst();
  if (!project) return null;
  return { view: await orchestrationView(db, row, project), channelId: row.slack_channel_id };
}

/** Of these orchestrations, those started from Slack. */
export async function orchestrationsFromSlack(db: Tx, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom("orchestrations")
    .select("id")
    .where("id", "in", ids)
    .where("slack_channel_id", "is not", null)
    .execute();
  return new Set(rows.map((r) => r.id));
}
