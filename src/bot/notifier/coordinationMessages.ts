import type { DecisionCard, IncidentNotice } from "../../engine/api/model.js";
import { decisionMessage, incidentMessage } from "../../views/coordination.js";
import { isSlackUser, RendererBase } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/** The events of decisions and incidents. */
type CoordinationKind =
  | "decision.opened"
  | "decision.answered"
  | "decision.cancelled"
  | "incident.opened"
  | "incident.updated";

/**
 * Decisions and incidents in Slack. A decision goes into its conversation's thread (its buttons
 * under the answer that asked it; the DM that points to it is `DecisionReminders`'), or by DM
 * when the conversation is not in Slack and the user wants decisions by DM; once answered or cancelled, the message is edited so it can't be clicked
 * again. An incident is posted in the project's channel and, if the user wants it, by DM; updates
 * edit them.
 */
export class CoordinationMessages extends RendererBase implements Renderer<CoordinationKind> {
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
    const card = await this.api.decisions.card(id);
    // The card is for the person who answers: their language, in a thread or a DM.
    return this.inLocaleOf(card.decision.user_id, () => this.decisionIn(outboxId, kind, id, card));
  }

  private async decisionIn(
    outboxId: number,
    kind: string,
    id: string,
    { decision: d, projectName, answeredBy }: DecisionCard,
  ): Promise<Rendered> {
    const view = decisionMessage(this.locale, d, { projectName, answeredBy });
    const key = `decision:${id}`;
    // Answered or cancelled: the card is edited to its closed form, without buttons.
    if (kind === "decision.answered" || kind === "decision.cancelled")
      return (await this.editPosted(key, view)) ? "posted" : "ignored";
    // In the conversation's thread when it lives in Slack, else by DM to its person.
    const address = await this.addresses.get("conversation", d.conversation_id);
    let channel = address?.channel ?? null;
    let threadTs = address?.threadTs ?? null;
    if (!channel) {
      if (!isSlackUser(d.user_id) || !(await this.api.coordination.preferences(d.user_id)).decisions)
        return "ignored";
      channel = await this.dm(d.user_id);
      threadTs = null;
    }
    await this.poster.postOnce({
      key,
      outboxId,
      conversationId: d.conversation_id,
      purpose: "notice",
      channel,
      threadTs,
      text: view.text,
      blocks: view.blocks,
    });
    // Its DM, if any, is `decision.reminder`'s: a while later, and not while they are in the thread.
    return "posted";
  }

  private async incident(outboxId: number, kind: string, id: string): Promise<Rendered> {
    const notice = await this.api.coordination.incidentNotice(id);
    if (!notice) return "ignored";
    return this.inLocaleOf(notice.userId, () => this.incidentIn(outboxId, kind, id, notice));
  }

  private async incidentIn(
    outboxId: number,
    kind: string,
    id: string,
    notice: IncidentNotice,
  ): Promise<Rendered> {
    const { incident, userId, projectChannelId } = notice;
    const view = incidentMessage(this.locale, incident);
    const targets: Array<{ key: string; channel: () => Promise<string> }> = [];
    if (projectChannelId) targets.push({ key: `incident:${id}`, channel: async () => projectChannelId });
    if (isSlackUser(userId) && (await this.api.coordination.preferences(userId)).incidents) {
      targets.push({ key: `incident-dm:${id}`, channel: () => this.dm(userId) });
    }
    let rendered: Rendered = "ignored";
    for (const target of targets) {
      const posted = await this.poster.posts.find(target.key);
      if (posted?.status === "posted" && posted.ts) {
        await this.edit(posted.channel, posted.ts, view);
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
}
