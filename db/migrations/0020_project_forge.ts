import type { Kysely } from "kysely";
import { addMissingColumns } from "./helpers.js";

// Frozen once landed. Work lanes (issue 18): where a project's branches are pushed and its pull
// (merge) requests opened. `projects.remote`: the git remote pushed to ('origin' by default);
// `forge`: 'github' | 'gitlab', or null (derived from the remote's URL when it is on github.com
// or gitlab.com); `forge_url`: the API's base URL (https://api.github.com, GitHub Enterprise's
// https://host/api/v3, GitLab's https://host/api/v4); `forge_repo`: "owner/name", GitLab's
// "group/sub/name" or its numeric id. No token here: tokens live in files under the data
// directory's credentials/ (never in a row). Additive and idempotent: an older worker ignores them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await addMissingColumns(db, "projects", [
    ["remote", "text", (c) => c.notNull().defaultTo("origin")],
    ["forge", "text", (c) => c],
    ["forge_url", "text", (c) => c],
    ["forge_repo", "text", (c) => c],
  ]);
}

export async function down(): Promise<void> {
  // Additive columns: an older version ignores them.
}
