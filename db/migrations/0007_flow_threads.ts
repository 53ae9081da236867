import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Where runs and orchestrations live in Slack (each gets a thread in the
// channel it was started from), and the lookups the outcome hook makes to tell a run's or an
// orchestration's conversation from a plain one.

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["remediation_runs", "orchestrations"]) {
    await addMissingColumns(db, table, [
      ["slack_channel_id", "text", (c) => c],
      ["slack_thread_ts", "text", (c) => c],
    ]);
  }
  await db.schema.createIndex("idx_remediation_step_runs_conversation").ifNotExists().on("remediation_step_runs").column("conversation_id").execute();
  await db.schema.createIndex("idx_remediation_runs_master_conversation").ifNotExists().on("remediation_runs").column("master_conversation_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("idx_remediation_runs_master_conversation").ifExists().execute();
  await db.schema.dropIndex("idx_remediation_step_runs_conversation").ifExists().execute();
}
