import { budgetReachedText } from "../../views/usage.js";
import { utcMinute } from "../../views/format.js";
import { isSlackUser, RendererBase } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

/**
 * A budget found reached (issue 21): a DM to the admin the event is for, in their language. The
 * engine writes one event per admin once per budget and period; the post key makes the DM once
 * even when the event is delivered again.
 */
export class BudgetNotices extends RendererBase implements Renderer<"budget.reached"> {
  async relevant(entries: Array<EntryOf<"budget.reached">>): Promise<Set<number>> {
    return new Set(entries.filter((e) => isSlackUser(e.event.admin)).map((e) => e.id));
  }

  async handle({ id: outboxId, event: e }: EntryOf<"budget.reached">): Promise<Rendered> {
    if (!isSlackUser(e.admin)) return "ignored";
    return this.inLocaleOf(e.admin, async (): Promise<Rendered> => {
      const text = budgetReachedText(this.locale, { ...e, resets: utcMinute(e.resetsAt) });
      await this.poster.postOnce({
        key: `budget-dm:${e.admin}:${e.scope}:${e.name}:${e.period}:${e.periodStart}`,
        outboxId,
        conversationId: null,
        purpose: "notice",
        channel: await this.dm(e.admin),
        threadTs: null,
        text,
      });
      return "posted";
    });
  }

  async reportFailure(): Promise<void> {
    // The admin is the one who would be told: there is nobody else to tell.
  }
}
