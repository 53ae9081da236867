import { engineErrorText, isMessageKey } from "../../i18n/index.js";
import { t, type Locale } from "../../i18n/index.js";
import { escapeClip } from "../../views/mrkdwn.js";
import { RendererBase, isSlackUser } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

type Kinds = "schedule.skipped" | "schedule.paused";

/**
 * Why a firing was skipped, in the reader's language. Over budget it says which budget, the use,
 * the reset and that the schedule stays active (the person's refusal would tell them to wait).
 */
function skippedText(
  locale: Locale,
  common: Record<string, string>,
  event: Extract<EntryOf<Kinds>["event"], { kind: "schedule.skipped" }>,
): string {
  if (event.reason === "over_budget") {
    const params = Object.fromEntries(
      Object.entries(event.params).map(([k, v]) => [k, typeof v === "string" ? escapeClip(v, 80) : v]),
    );
    return t(locale, "schedule.skipped_over_budget", { ...params, ...common });
  }
  const why = isMessageKey(`reason.${event.reason}`)
    ? engineErrorText(locale, { code: event.code, reason: event.reason, params: event.params })
    : escapeClip(event.reason, 200);
  return t(locale, "schedule.skipped", { ...common, why });
}

/**
 * A schedule's notices: a skipped firing (refused by rights, policy or a budget) said in the
 * schedule's channel, and a pause because its creator lost the project said to the creator by DM.
 * Each is posted once (by key).
 */
export class ScheduleMessages extends RendererBase implements Renderer<Kinds> {
  async relevant(entries: Array<EntryOf<Kinds>>): Promise<Set<number>> {
    return new Set(entries.map((e) => e.id));
  }

  async handle(entry: EntryOf<Kinds>): Promise<Rendered> {
    const { id: outboxId, event } = entry;
    const s = await this.api.schedules.notice(event.scheduleId);
    if (!s) return "ignored"; // removed since: nothing left to speak of
    return this.inLocaleOf(s.createdBy, async (): Promise<Rendered> => {
      const common = { id: s.id, project: escapeClip(s.project, 80), cron: s.cron };
      if (event.kind === "schedule.paused") {
        if (!isSlackUser(event.userId)) return "ignored";
        const text = t(this.locale, "schedule.paused_dm", common);
        const channel = await this.dm(event.userId);
        await this.poster.postOnce({
          key: `schedule-paused:${outboxId}`,
          outboxId,
          conversationId: null,
          purpose: "notice",
          channel,
          threadTs: null,
          text,
        });
        return "posted";
      }
      if (!s.channelId) return "ignored";
      const text = skippedText(this.locale, common, event);
      await this.poster.postOnce({
        key: `schedule-skipped:${outboxId}`,
        outboxId,
        conversationId: null,
        purpose: "notice",
        channel: s.channelId,
        threadTs: null,
        text,
      });
      return "posted";
    });
  }

  async reportFailure(): Promise<void> {
    // A notice about a schedule: the schedule's list says the same, nothing waits on it.
  }
}
