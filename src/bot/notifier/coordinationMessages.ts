import type { WebClient } from "@slack/web-api";
import type { Database } from "../../engine/database.js";
import { getDecision } from "../../engine/coordination/decisions.js";
import { listIncidents } from "../../engine/coordination/incidents.js";
import { getPreferences } from "../../engine/coordination/preferences.js";
import type { Locale } from "../../i18n/index.js";
import { decisionMessage, incidentMessage } from "../../views/coordination.js";
import type { SlackPoster } from "./poster.js";
import type { EventRenderer, OutboxRow, Rendered } from "./renderer.js";

const SYSTEM = { userId: "system", isAdmin: true };
const isSlackUser = (id: string | null): id is string => Boolean(id && /^[UW][A-Z0-9]+$/.test(id));

/**
 * Decisions and incidents in Slack. A decision goes into its conversation's thread (its buttons
 * under the answer that asked it), or by DM when the conversation is not in Slack and the user
 * wants decisions by DM; once answered or cancelled, the message is edited so it can't be clicked
 * again. An incident is posted in the project's channel and, if the user wants it, by DM; updates
 * edit them.
 */
export class CoordinationMessages implements EventRenderer {
  readonly kinds: ReadonlySet<string> = new Set(["decision.opened", "decision.answered", "decision.cancelled", "incident.opened", "incident.updated"]);

  constructor(
    private readonly db: Database,
    private readonly client: WebClient,
    private readonly poster: SlackPoster,
    private readonly locale: Locale,
  ) {}

  async relevant(rows: OutboxRow[]): Promise<Set<number>> {
    return new Set(rows.map((r) => r.id));
  }

  async handle(outboxId: number, kind: string, payload: Record<string, unknown>): Promise<Rendered> {
    if (kind.startsWith("decision.") && typeof payload.decisionId === "string") return this.decision(outboxId, kind, payload.decisionId);
    if (kind.startsWith("incident.") && typeof payload.incidentId === "string") return this.incident(outboxId, kind, payload.incidentId);
    return "ignored";
  }

  async reportFailure(): Promise<void> {
    // Decisions and incidents are also listed by /codex decisions, /codex incidents and App Home.
  }

  private async decision(outboxId: number, kind: string, id: string): Promise<Rendered> {
    const d = await getDecision(this.db, SYSTEM, id);
    const c = await this.db
      .selectFrom("conversations as c")
      .innerJoin("projects as p", "p.id", "c.project_id")
      .select(["c.slack_channel_id", "c.slack_thread_ts", "p.name"])
      .where("c.id", "=", d.conversation_id)
      .executeTakeFirstOrThrow();
    const answeredBy = d.status === "ANSWERED" ? ((await this.db.selectFrom("decisions").select("answered_by").where("id", "=", id).executeTakeFirst())?.answered_by ?? undefined) : undefined;
    const view = decisionMessage(this.locale, d, { projectName: c.name, answeredBy });
    const key = `decision:${id}`;
    // Answered or cancelled: the card is edited to its closed form, without buttons.
    if (kind === "decision.answered" || kind === "decision.cancelled") {
      const posted = await this.db.selectFrom("slack_posts").select(["channel_id", "ts", "status"]).where("key", "=", key).executeTakeFirst();
      if (posted?.status !== "posted" || !posted.ts) return "ignored";
      await this.client.chat.update({ channel: posted.channel_id, ts: posted.ts, text: view.text, blocks: view.blocks as never });
      return "posted";
    }
    let channel = c.slack_channel_id;
    let threadTs = c.slack_thread_ts;
    if (!channel) {
      if (!isSlackUser(d.user_id) || !(await getPreferences(this.db, d.user_id)).decisions) return "ignored";
      channel = await this.dm(d.user_id);
      threadTs = null;
    }
    await this.poster.postOnce({ key, outboxId, conversationId: d.conversation_id, purpose: "notice", channel, threadTs, text: view.text, blocks: view.blocks });
    return "posted";
  }

  private async incident(outboxId: number, kind: string, id: string): Promise<Rendered> {
    const incident = (await listIncidents(this.db, SYSTEM, { all: true })).find((i) => i.id === id);
    if (!incident) return "ignored";
    const view = incidentMessage(this.locale, incident);
    const row = await this.db
      .selectFrom("incidents as i")
      .innerJoin("projects as p", "p.id", "i.project_id")
      .select(["i.user_id", "p.slack_channel_id"])
      .where("i.id", "=", id)
      .executeTakeFirstOrThrow();
    const targets: Array<{ key: string; channel: () => Promise<string> }> = [];
    if (row.slack_channel_id) targets.push({ key: `incident:${id}`, channel: async () => row.slack_channel_id as string });
    if (isSlackUser(row.user_id) && (await getPreferences(this.db, row.user_id)).incidents) {
      const user = row.user_id;
      targets.push({ key: `incident-dm:${id}`, channel: () => this.dm(user) });
    }
    let rendered: Rendered = "ignored";
    for (const target of targets) {
      const posted = await this.db.selectFrom("slack_posts").select(["channel_id", "ts", "status"]).where("key", "=", target.key).executeTakeFirst();
      if (posted?.status === "posted" && posted.ts) {
        await this.client.chat.update({ channel: posted.channel_id, ts: posted.ts, text: view.text, blocks: view.blocks as never });
      } else if (kind === "incident.opened" || posted) {
        await this.poster.postOnce({ key: target.key, outboxId, conversationId: incident.conversation_id, purpose: "notice", channel: await target.channel(), threadTs: null, text: view.text, blocks: view.blocks });
      } else continue;
      rendered = "posted";
    }
    return rendered;
  }

  private async dm(userId: string): Promise<string> {
    const res = await this.client.conversations.open({ users: userId });
    const channel = res.channel?.id;
    if (!channel) throw new Error("conversations.open returned no channel");
    return channel;
  }
}
