import { sql, type Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. A project's egress policy (issue 31, item 3; DESIGN "Network is a list").
// `projects.network_mode`: 'off', 'allowlist' (its agents reach only the hosts listed) or 'open'.
// `projects.network_hosts`: the list, a JSON array of entries ("registry.npmjs.org",
// "*.example.com", "10.0.0.5:8080"), '[]' for none. New projects are 'allowlist' with an empty
// list: no network, which is what a restricted project had. Upgrading changes nobody's behaviour:
// a full-access project, whose agents had the whole internet, becomes 'open'; every other one
// keeps no network ('allowlist', empty). Idempotent: the update touches only full-access projects
// still at the default, so a run interrupted between the columns and the update completes when
// it runs again (nothing else writes the columns before the migration is recorded). Additive: a
// worker of an older version ignores the columns.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "projects", [
    ["network_mode", "text", (c) => c.notNull().defaultTo("allowlist")],
    ["network_hosts", "text", (c) => c.notNull().defaultTo("[]")],
  ]);
  await sql`update projects set network_mode = 'open'
            where full_access = 1 and network_mode = 'allowlist' and network_hosts = '[]'`.execute(db);
}

export async function down(): Promise<void> {
  // Additive columns: an older version ignores them.
}
