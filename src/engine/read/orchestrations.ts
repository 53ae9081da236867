import type { Tx } from "../database.js";
import { orchestrationView, type OrchestrationView } from "../orchestrations/index.js";
import { findOrchestration } from "../orchestrations/index.js";

/** An orchestration as its thread shows it. */
export async function orchestrationThreadView(
  db: Tx,
  id: string,
): Promise<{ view: OrchestrationView } | null> {
  const row = await findOrchestration(db, id);
  if (!row) return null;
  const project = await db
    .selectFrom("projects")
    .selectAll()
    .where("id", "=", row.project_id)
    .executeTakeFirst();
  if (!project) return null;
  return { view: await orchestrationView(db, row, project) };
}
