import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. See and prompt are distinct (DESIGN): a project's owner may make it visible
// to the members of its channel (`visibility` 'channel'; 'private', the default, keeps today's
// rule: its owner and admins), and name people who may prompt it besides them
// (`project_prompters`). Additive and idempotent: a worker of an older version ignores both.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "projects", [
    ["visibility", "text", (c) => c.notNull().defaultTo("private")],
  ]);
  await db.schema
    .createTable("project_prompters")
    .ifNotExists()
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("added_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("project_prompters_pk", ["project_id", "user_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("project_prompters").ifExists().execute();
  await db.schema.alterTable("projects").dropColumn("visibility").execute();
}
