import type { Database } from "../../engine/api/runtime.js";
import type { ForgePollCursorsTable } from "./schema.js";
import { ForgeThreads } from "./threads.js";

/** Where one listing was read up to, as the engine's poll takes it and gives it back. */
export type PollCursor = Pick<ForgePollCursorsTable, "since" | "last_id" | "etag">;

/** A project polled, and since when (nothing older is acted on). */
export interface PolledProject {
  project_id: string;
  poll_from: number;
}

/**
 * Polling's rows (0042): whether a project is polled (`forge_settings.poll`, `poll_from`) and
 * where each of its listings was read up to (`forge_poll_cursors`), durable across restarts.
 */
export class ForgePolling {
  constructor(private readonly db: Database) {}

  /** Whether a project is polled, and since when. */
  async pollOf(projectId: string): Promise<{ poll: "on" | "off"; from: number | null }> {
    const row = await this.db
      .selectFrom("forge_settings")
      .select(["poll", "poll_from"])
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    const from = row?.poll_from;
    return { poll: row?.poll ?? "off", from: from === null || from === undefined ? null : Number(from) };
  }

  /**
   * Turns polling on or off. Turned on (from off), it starts now: the cursors are forgotten, so
   * that what was written on the forge while it was off is not acted on. On again changes nothing.
   */
  async setPoll(
    projectId: string,
    on: boolean,
    now: number,
  ): Promise<{ poll: "on" | "off"; from: number | null }> {
    const was = await this.pollOf(projectId);
    if (on && was.poll === "on") return was;
    // The settings' row, with its defaults, before the update (a project may have none yet).
    await new ForgeThreads(this.db).setSettings(projectId, {}, now);
    await this.db
      .updateTable("forge_settings")
      .set(
        on
          ? { poll: "on", poll_from: now, updated_at: now }
          : { poll: "off", poll_from: null, updated_at: now },
      )
      .where("project_id", "=", projectId)
      .execute();
    if (on) await this.db.deleteFrom("forge_poll_cursors").where("project_id", "=", projectId).execute();
    return this.pollOf(projectId);
  }

  /** The projects polled. */
  async polled(): Promise<PolledProject[]> {
    const rows = await this.db
      .selectFrom("forge_settings")
      .select(["project_id", "poll_from"])
      .where("poll", "=", "on")
      .where("poll_from", "is not", null)
      .execute();
    return rows.map((r) => ({ project_id: r.project_id, poll_from: Number(r.poll_from) }));
  }

  /** A project's cursors, by listing. */
  async cursors(projectId: string): Promise<Record<string, PollCursor>> {
    const rows = await this.db
      .selectFrom("forge_poll_cursors")
      .select(["listing", "since", "last_id", "etag"])
      .where("project_id", "=", projectId)
      .execute();
    return Object.fromEntries(rows.map(({ listing, ...c }) => [listing, c]));
  }

  /** Records where a listing was read up to (after what it gave was journaled). */
  async saveCursor(projectId: string, listing: string, c: PollCursor, now: number): Promise<void> {
    await this.db
      .insertInto("forge_poll_cursors")
      .values({ project_id: projectId, listing, ...c, updated_at: now })
      .onConflict((oc) => oc.columns(["project_id", "listing"]).doUpdateSet({ ...c, updated_at: now }))
      .execute();
  }
}
