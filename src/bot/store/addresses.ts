import type { Clock } from "../../engine/clock.js";
import type { Database } from "../../engine/database.js";

/** What a Slack address belongs to. */
export type SubjectKind = "conversation" | "run" | "orchestration";

/** Where a subject lives in Slack: its channel, its thread, its state message (the thread's root, or a reply). */
export interface SlackAddress {
  channel: string;
  threadTs: string | null;
  statusTs: string | null;
}

/**
 * The Slack adapter's own record of where each subject lives (`slack_addresses`): the engine knows
 * where a request came from, the bot alone knows the messages it posted for it.
 */
export class SlackAddresses {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The address of one subject, if the bot recorded one. */
  async get(kind: SubjectKind, id: string): Promise<SlackAddress | null> {
    const row = await this.db
      .selectFrom("slack_addresses")
      .select(["channel_id", "thread_ts", "status_ts"])
      .where("subject_kind", "=", kind)
      .where("subject_id", "=", id)
      .executeTakeFirst();
    return row ? { channel: row.channel_id, threadTs: row.thread_ts, statusTs: row.status_ts } : null;
  }

  /** Records (or replaces) a subject's address. */
  async record(kind: SubjectKind, id: string, address: SlackAddress): Promise<void> {
    const values = {
      channel_id: address.channel,
      thread_ts: address.threadTs,
      status_ts: address.statusTs,
      updated_at: this.clock.now(),
    };
    await this.db
      .insertInto("slack_addresses")
      .values({ subject_kind: kind, subject_id: id, ...values })
      .onConflict((oc) => oc.columns(["subject_kind", "subject_id"]).doUpdateSet(values))
      .execute();
  }

  /** The subject whose thread this is, if the bot posted it (a `/codex ask` root, a run's root). */
  async subjectOfThread(kind: SubjectKind, channel: string, threadTs: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("slack_addresses")
      .select("subject_id")
      .where("channel_id", "=", channel)
      .where("thread_ts", "=", threadTs)
      .where("subject_kind", "=", kind)
      .executeTakeFirst();
    return row?.subject_id ?? null;
  }
}
