import type { WebClient } from "@slack/web-api";
import type { Database } from "../../engine/database.js";
import { getPreferences } from "../../engine/coordination/preferences.js";
import { decisionCard, incidentNotice } from "../../engine/read/coordination.js";
import { t, type Locale } from "../../i18n/index.js";
import { escapeClip } from "../../views/mrkdwn.js";
import { decisionMessage, incidentMessage } from "../../views/coordination.js";
import type { SlackAddresses } from "../store/addresses.js";
import type { SlackPoster } from "./poster.js";
import { currentLocale, inLocale, type UserLocales } from "../userLocales.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/** The events of decisions and incidents. */
type CoordinationKind =
  | "decision.opened"
  | "decision.answered"
  | "decision.cancelled"
  | "incident.opened"
  | "incident.updated";

const isSlackUser = (id: string | null): id is string => Boolean(id && /^[UW][A-Z0-9]+$/.test(id));

/**
 * Decisions and incidents in Slack. A decision goes into its conversation's thread (its buttons
 * under the answer that asked it), or by DM when the conversation is not in Slack and the user
 * wants decisions by DM; once answered or cancelled, the message is edited so it can't be clicked
 * again. An incident is posted in the project's channel and, if the user wants it, by DM; updates
 * edit them.
 */
export class CoordinationMessages implements Renderer<CoordinationKind> {
  constructor(
    private readonly db: Database,
    private readonly client: WebClient,
    private readonly poster: SlackPoster,
    private readonly addresses: SlackAddresses,
    private readonly fallback: Locale,
    private readonly locales: UserLocales,
  ) {}

  /** The language of the person a decision or incident is for, set around each event. */
  private get locale(): Locale {
    return currentLocale(this.fallback);
  }

  async relevant(entries: Array<EntryOf<CoordinationKind>>): Promise<Set<number>> {
    return new Set(entries.map((e) => e.id));
  }

  async handle({ id: outboxId, event }: EntryOf<CoordinationKind>): Promise<Rendered> {
    if (
      event.kind === "decision.opened" ||
      event.kind === "decision.answered" ||
      event.kind === "decision.cancelled"
    )
      return this.decision(outboxId, event.kind, event.decisionId);
    return this.incident(outboxId, event.kind, event.incidentId);
  }

  async reportFailure(): Promise<void> {
    // Decisions and incidents are also listed by /codex decisions, /codex incidents and App Home.
  }

  private async decision(outboxId: number, kind: string, id: string): Promise<Rendered> {
    const card = await decisionCard(this.db, id);
    // The card is for the person who answers: their language, in a thread or a DM.
    return inLocale(await this.locales.of(card.decision.user_id), () =>
      this.decisionIn(outboxId, kind, id, card),
    );
  }

  private async decisionIn(
    outboxId: number,
    kind: string,
    id: string,
    { decision: d, projectName, answeredBy }: Awaited<ReturnType<typeof decisionCard>>,
  ): Promise<Rendered> {
    const view = decisionMessage(this.locale, d, { projectName, answeredBy });
    const key = `decision:${id}`;
    // Answered or cancelled: the card is edited to its closed form, without buttons.
    if (kind === "decision.answered" || kind === "decision.cancelled") {
      const posted = await this.poster.posts.find(key);
      if (posted?.status !== "posted" || !posted.ts) return "ignored";
      await this.client.chat.update({
        channel: posted.channel,
        ts: posted.ts,
        text: view.text,
        blocks: view.blocks,
      });
      return "posted";
    }
    // In the conversation's thread when it lives in Slack, else by DM to its person.
    const address = await this.addresses.get("conversation", d.conversation_id);
    let channel = address?.channel ?? null;
    let threadTs = address?.threadTs ?? null;
    if (!channel) {
      if (!isSlackUser(d.user_id) || !(await getPreferences(this.db, d.user_id)).decisions) return "ignored";
      channel = await this.dm(d.user_id);
      threadTs = null;
    }
    const ts = await this.poster.postOnce({
      key,
      outboxId,
      conversationId: d.conversation_id,
      purpose: "notice",
      channel,
      threadTs,
      text: view.text,
      blocks: view.blocks,
    });
    if (address) await this.pingDecision(outboxId, d, projectName, channel, ts);
    return "posted";
  }

  /**
   * A DM saying a decision awaits, when its card went to a channel's thread (a DM conversation
   * is already under their eyes) and the person wants decisions notified.
   */
  private async pingDecision(
    outboxId: number,
    d: { id: string; user_id: string | null; conversation_id: string; title: string },
    projectName: string,
    channel: string,
    ts: string,
  ): Promise<void> {
    if (channel.startsWith("D") || !isSlackUser(d.user_id)) return;
    if (!(await getPreferences(this.db, d.user_id)).decisions) return;
    const key = `decision-dm:${d.id}`;
    if (await this.poster.postedTs(key)) return;
    const link = await this.client.chat.getPermalink({ channel, message_ts: ts });
    const text = t(this.locale, "notice.decision_waiting", {
      project: escapeClip(projectName, 100),
      title: escapeClip(d.title, 200),
      link: link.permalink ? `<${link.permalink}|${t(this.locale, "notice.see_thread")}>` : "",
    });
    await this.poster.postOnce({
      key,
      outboxId,
      conversationId: d.conversation_id,
      purpose: "notice",
      channel: await this.dm(d.user_id),
      threadTs: null,
      text,
    });
  }

  private async incident(outboxId: number, kind: string, id: string): Promise<Rendered> {
    const notice = await incidentNotice(this.db, id);
    if (!notice) return "ignored";
    return inLocale(await this.locales.of(notice.userId), () => this.incidentIn(outboxId, kind, id, notice));
  }

  private async incidentIn(
    outboxId: number,
    kind: string,
    id: string,
    notice: NonNullable<Awaited<ReturnType<typeof incidentNotice>>>,
  ): Promise<Rendered> {
    const { incident, userId, projectChannelId } = notice;
    const view = incidentMessage(this.locale, incident);
    const targets: Array<{ key: string; channel: () => Promise<string> }> = [];
    if (projectChannelId) targets.push({ key: `incident:${id}`, channel: async () => projectChannelId });
    if (isSlackUser(userId) && (await getPreferences(this.db, userId)).incidents) {
      targets.push({ key: `incident-dm:${id}`, channel: () => this.dm(userId) });
    }
    let rendered: Rendered = "ignored";
    for (const target of targets) {
      const posted = await this.poster.posts.find(target.key);
      if (posted?.status === "posted" && posted.ts) {
        await this.client.chat.update({
          channel: posted.channel,
          ts: posted.ts,
          text: view.text,
          blocks: view.blocks,
        });
      } else if (kind === "incident.opened" || posted) {
        await this.poster.postOnce({
          key: target.key,
          outboxId,
          conversationId: incident.conversation_id,
          purpose: "notice",
          channel: await target.channel(),
          threadTs: null,
          text: view.text,
          blocks: view.blocks,
        });
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
