import type { Clock, Database } from "../../engine/api/runtime.js";
import type {} from "./schema.js"; // the bot's tables

/**
 * Metadata type on every message the bot posts: it carries the post's key, by which a post whose
 * ts was never recorded is found again (the poster's reconciliation, the intake's thread roots).
 */
export const POST_METADATA_TYPE = "codexpi_post";

/** Why a message was posted. */
export type PostPurpose = "status" | "answer" | "notice" | "file" | "interim" | "stream";

/** One message the notifier posted, or means to post (`slack_posts`, the bot's own table). */
export interface PostRecord {
  key: string;
  channel: string;
  threadTs: string | null;
  ts: string | null;
  status: "sending" | "posted";
}

/** The intent of a post, recorded before Slack is called. */
export interface PostIntent {
  key: string;
  outboxId: number;
  conversationId: string | null;
  purpose: PostPurpose;
  channel: string;
  threadTs: string | null;
}

/** Every message the notifier posts, by key: intent first, then the ts Slack gave it. */
export class SlackPosts {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The post of a key, if any. */
  async find(key: string): Promise<PostRecord | null> {
    const row = await this.db
      .selectFrom("slack_posts")
      .select(["key", "channel_id", "thread_ts", "ts", "status"])
      .where("key", "=", key)
      .executeTakeFirst();
    return row
      ? {
          key: row.key,
          channel: row.channel_id,
          threadTs: row.thread_ts,
          ts: row.ts,
          status: row.status === "posted" ? "posted" : "sending",
        }
      : null;
  }

  /** The posted messages among these keys. */
  async postedAmong(keys: string[]): Promise<PostRecord[]> {
    if (!keys.length) return [];
    const rows = await this.db
      .selectFrom("slack_posts")
      .select(["key", "channel_id", "thread_ts", "ts"])
      .where("key", "in", keys)
      .where("status", "=", "posted")
      .execute();
    return rows.map((r) => ({
      key: r.key,
      channel: r.channel_id,
      threadTs: r.thread_ts,
      ts: r.ts,
      status: "posted",
    }));
  }

  /** The keys posted under a prefix (a range on the primary key: a LIKE would scan every post ever made). */
  async postedKeysWithPrefix(prefix: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom("slack_posts")
      .select("key")
      .where("key", ">=", prefix)
      .where("key", "<", `${prefix}\uffff`)
      .where("status", "=", "posted")
      .execute();
    return new Set(rows.map((r) => r.key));
  }

  /** The most recent post under a prefix (a range on the primary key), with when it was intended. */
  async latestWithPrefix(
    prefix: string,
  ): Promise<{ key: string; createdAt: number; status: "sending" | "posted" } | null> {
    const row = await this.db
      .selectFrom("slack_posts")
      .select(["key", "created_at", "status"])
      .where("key", ">=", prefix)
      .where("key", "<", `${prefix}\uffff`)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return row
      ? {
          key: row.key,
          createdAt: Number(row.created_at),
          status: row.status === "posted" ? "posted" : "sending",
        }
      : null;
  }

  /** Records the intent to post (status `sending`). */
  async intend(p: PostIntent): Promise<void> {
    await this.db
      .insertInto("slack_posts")
      .values({
        key: p.key,
        outbox_id: p.outboxId,
        conversation_id: p.conversationId,
        purpose: p.purpose,
        channel_id: p.channel,
        thread_ts: p.threadTs,
        ts: null,
        status: "sending",
        created_at: this.clock.now(),
      })
      .execute();
  }

  /** Forgets an intent Slack answered it did not carry out. */
  async forgetIntent(key: string): Promise<void> {
    await this.db.deleteFrom("slack_posts").where("key", "=", key).where("status", "=", "sending").execute();
  }

  /** Records the ts Slack gave a post still being sent (a post already recorded keeps its ts). */
  async markPosted(key: string, ts: string): Promise<void> {
    await this.db
      .updateTable("slack_posts")
      .set({ ts, status: "posted" })
      .where("key", "=", key)
      .where("status", "=", "sending")
      .execute();
  }

  /** Records an uploaded file (files have no ts: `file` stands for it). */
  async recordFile(p: Omit<PostIntent, "purpose">): Promise<void> {
    await this.db
      .insertInto("slack_posts")
      .values({
        key: p.key,
        outbox_id: p.outboxId,
        conversation_id: p.conversationId,
        purpose: "file",
        channel_id: p.channel,
        thread_ts: p.threadTs,
        ts: "file",
        status: "posted",
        created_at: this.clock.now(),
      })
      .onConflict((oc) => oc.column("key").doUpdateSet({ status: "posted", ts: "file" }))
      .execute();
  }
}
