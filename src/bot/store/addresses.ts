import type { Clock, Database, Tx } from "../../engine/api/runtime.js";
import type { SlackOrigin } from "./schema.js";

export type { SlackOrigin } from "./schema.js";

/** What a Slack address belongs to. */
export type SubjectKind = "conversation" | "run" | "orchestration";

/** Where a subject lives in Slack: its channel, its thread, its state message (the thread's root, or a reply). */
export interface SlackAddress {
  channel: string;
  threadTs: string | null;
  statusTs: string | null;
  /** How a conversation was asked (null for runs and orchestrations); kept when not given. */
  origin?: SlackOrigin | null;
}

/**
 * The Slack adapter's own record of where each subject lives (`slack_addresses`): the channel and
 * thread a request came from, the messages the bot posted for it. The engine knows none of it.
 */
export class SlackAddresses {
  constructor(
    private readonly db: Database | Tx,
    private readonly clock: Clock,
  ) {}

  /** The same store inside a transaction (the engine's, when a subject is created: see `OnCreated`). */
  within(trx: Tx): SlackAddresses {
    return new SlackAddresses(trx, this.clock);
  }

  /** The address of one subject, if the bot recorded one. */
  async get(kind: SubjectKind, id: string): Promise<SlackAddress | null> {
    const row = await this.db
      .selectFrom("slack_addresses")
      .select(["channel_id", "thread_ts", "status_ts", "origin"])
      .where("subject_kind", "=", kind)
      .where("subject_id", "=", id)
      .executeTakeFirst();
    return row
      ? { channel: row.channel_id, threadTs: row.thread_ts, statusTs: row.status_ts, origin: row.origin }
      : null;
  }

  /** Of these subjects, those that live in Slack (the others were asked elsewhere: the CLI). */
  async addressed(kind: SubjectKind, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db
      .selectFrom("slack_addresses")
      .select("subject_id")
      .where("subject_kind", "=", kind)
      .where("subject_id", "in", ids)
      .execute();
    return new Set(rows.map((r) => r.subject_id));
  }

  /** Records (or replaces) a subject's address; an origin not given stays as it was. */
  async record(kind: SubjectKind, id: string, address: SlackAddress): Promise<void> {
    const values = {
      channel_id: address.channel,
      thread_ts: address.threadTs,
      status_ts: address.statusTs,
      ...(address.origin !== undefined ? { origin: address.origin } : {}),
      updated_at: this.clock.now(),
    };
    await this.db
      .insertInto("slack_addresses")
      .values({ subject_kind: kind, subject_id: id, ...values })
      .onConflict((oc) => oc.columns(["subject_kind", "subject_id"]).doUpdateSet(values))
      .execute();
  }

  /** The subject whose thread this is (a `/codex ask` root, a run's root, a mention's own thread). */
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

  /**
   * The newest message of a conversation's thread already given to its agent, as a prompt or as
   * context (migration 0023): the next follow-up carries what people posted after it.
   */
  async contextTs(conversationId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom("slack_addresses")
      .select("context_ts")
      .where("subject_kind", "=", "conversation")
      .where("subject_id", "=", conversationId)
      .executeTakeFirst();
    return row?.context_ts ?? null;
  }

  /**
   * Moves that mark forward to `ts`, never back (follow-ups may be handled out of order). Slack
   * timestamps have a fixed width (10 digits, a dot, 6 digits): they compare as strings.
   */
  async advanceContext(conversationId: string, ts: string): Promise<void> {
    await this.db
      .updateTable("slack_addresses")
      .set({ context_ts: ts })
      .where("subject_kind", "=", "conversation")
      .where("subject_id", "=", conversationId)
      .where((eb) => eb.or([eb("context_ts", "is", null), eb("context_ts", "<", ts)]))
      .execute();
  }
}
