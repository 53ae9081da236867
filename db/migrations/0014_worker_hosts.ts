import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Worker hosts (issue 11): a `codexpi host` process registers itself in
// `hosts` and heartbeats; `projects.host` places a project on one (null: the coordinator's own
// machine, as before). `owner` is the process that holds the name, like a lease owner;
// `data_dir` is where that host keeps its Codex state (moving a project copies it from there).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("hosts")
    .ifNotExists()
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("owner", "text")
    .addColumn("data_dir", "text")
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("heartbeat_at", "bigint", (c) => c.notNull())
    .addColumn("load_percent", "real")
    .addColumn("memory_percent", "real")
    .addColumn("running", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await addMissingColumns(db, "projects", [["host", "text", (c) => c]]);
  await db.schema.createIndex("idx_projects_host").ifNotExists().on("projects").column("host").execute();
}
