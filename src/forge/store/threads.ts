import type { Database } from "../../engine/api/runtime.js";
import type { ForgeSettingsTable, ForgeThreadsTable } from "./schema.js";

/** A project's forge front-end settings (defaults when none are stored). */
export type ForgeSettings = Pick<
  ForgeSettingsTable,
  "channel_id" | "handle" | "forks" | "triggers" | "fix_ci" | "fix_ci_tries"
>;

/** What a project answers unless `--triggers` says otherwise. */
const DEFAULT_TRIGGERS = "comments,issues";

/** How many follow-ups failed checks get per pull request unless `--fix-ci-tries` says otherwise. */
const DEFAULT_FIX_CI_TRIES = 2;

/** The handle a comment mentions when a project names none. */
export const DEFAULT_HANDLE = "codexpi";

/** A turn whose answer waits to go back to the forge, with where it goes. */
export interface WaitingReply {
  queue_id: string;
  thread_key: string;
  project_id: string;
  conversation_id: string;
  channel_id: string;
  thread_ts: string;
}

/**
 * The forge front end's other rows: each project's settings (`forge_settings`), the notices posted
 * once (`forge_notices`), the conversation of each pull request or issue (`forge_threads`) and the
 * turns whose answers go back to the forge (`forge_replies`).
 */
export class ForgeThreads {
  constructor(private readonly db: Database) {}

  async settings(projectId: string): Promise<ForgeSettings> {
    const row = await this.db
      .selectFrom("forge_settings")
      .select(["channel_id", "handle", "forks", "triggers", "fix_ci", "fix_ci_tries"])
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    return row
      ? { ...row, fix_ci_tries: Number(row.fix_ci_tries) }
      : {
          channel_id: null,
          handle: null,
          forks: "off",
          triggers: DEFAULT_TRIGGERS,
          fix_ci: "off",
          fix_ci_tries: DEFAULT_FIX_CI_TRIES,
        };
  }

  /** The projects that have a forge channel (the forge front end is set up for them). */
  async withChannel(): Promise<string[]> {
    const rows = await this.db
      .selectFrom("forge_settings")
      .select("project_id")
      .where("channel_id", "is not", null)
      .execute();
    return rows.map((r) => r.project_id);
  }

  /** Changes a project's settings; absent fields stay. */
  async setSettings(projectId: string, changes: Partial<ForgeSettings>, now: number): Promise<ForgeSettings> {
    const next = { ...(await this.settings(projectId)), ...changes };
    await this.db
      .insertInto("forge_settings")
      .values({ project_id: projectId, ...next, updated_at: now })
      .onConflict((oc) => oc.column("project_id").doUpdateSet({ ...next, updated_at: now }))
      .execute();
    return next;
  }

  /** Whether a notice was posted under this key. */
  async noticed(key: string): Promise<boolean> {
    return (
      (await this.db.selectFrom("forge_notices").select("key").where("key", "=", key).executeTakeFirst()) !==
      undefined
    );
  }

  /** Records a notice by its key; false when it was posted before. */
  async firstNotice(key: string, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto("forge_notices")
      .values({ key, created_at: now })
      .onConflict((oc) => oc.column("key").doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async thread(key: string): Promise<ForgeThreadsTable | null> {
    return (
      (await this.db.selectFrom("forge_threads").selectAll().where("key", "=", key).executeTakeFirst()) ??
      null
    );
  }

  async recordThread(row: ForgeThreadsTable): Promise<void> {
    await this.db
      .insertInto("forge_threads")
      .values(row)
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
  }

  /** A turn whose answer is to go back to the forge (once per turn). */
  async awaitReply(queueId: string, threadKey: string, now: number): Promise<void> {
    await this.db
      .insertInto("forge_replies")
      .values({
        queue_id: queueId,
        thread_key: threadKey,
        status: "waiting",
        comment_url: null,
        created_at: now,
        posted_at: null,
      })
      .onConflict((oc) => oc.column("queue_id").doNothing())
      .execute();
  }

  waiting(limit = 20): Promise<WaitingReply[]> {
    return this.db
      .selectFrom("forge_replies")
      .innerJoin("forge_threads", "forge_threads.key", "forge_replies.thread_key")
      .select([
        "forge_replies.queue_id",
        "forge_replies.thread_key",
        "forge_threads.project_id",
        "forge_threads.conversation_id",
        "forge_threads.channel_id",
        "forge_threads.thread_ts",
      ])
      .where("forge_replies.status", "=", "waiting")
      .orderBy("forge_replies.created_at")
      .limit(limit)
      .execute();
  }

  /** Claims a reply before posting it (one poster wins); false when another took it. */
  async claimReply(queueId: string): Promise<boolean> {
    const r = await this.db
      .updateTable("forge_replies")
      .set({ status: "posting" })
      .where("queue_id", "=", queueId)
      .where("status", "=", "waiting")
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async replyPosted(queueId: string, url: string | null, now: number): Promise<void> {
    await this.db
      .updateTable("forge_replies")
      .set({ status: "posted", comment_url: url, posted_at: now })
      .where("queue_id", "=", queueId)
      .execute();
  }

  /** Gives a claimed reply back (its post failed): the next pass tries again. */
  async releaseReply(queueId: string): Promise<void> {
    await this.db
      .updateTable("forge_replies")
      .set({ status: "waiting" })
      .where("queue_id", "=", queueId)
      .where("status", "=", "posting")
      .execute();
  }
}
