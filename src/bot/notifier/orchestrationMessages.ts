import type { OrchestrationView } from "../../engine/api/model.js";
import { t } from "../../i18n/index.js";
import { channelMention, escapeClip } from "../../views/mrkdwn.js";
import { orchestrationRoot, stepMessages } from "../../views/orchestrations.js";
import { EditPacer } from "./editPacer.js";
import { isSlackUser, RendererBase } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

type OrchestrationKind = "orchestration.updated";

/**
 * Orchestrations started from Slack, in their thread. The root (`orch:<id>:root`, its ts recorded
 * as the orchestration's Slack address) shows the current state and the buttons it allows,
 * edited at most once a second; each history step is posted once in the thread
 * (`orch:<id>:step:<n>:<part>`), in order, whatever event brought the notifier here. Renders the
 * current state from the database, never the event's: late or repeated events show no stale state.
 */
export class OrchestrationMessages extends RendererBase implements Renderer<OrchestrationKind> {
  // On the wall clock, as this renderer always paced its root (the others pace on `clock`): kept
  // so that the split into a base changes no behaviour.
  private readonly pacer = new EditPacer(() => Date.now());

  /** Runs `fn` in the language of the orchestration's owner: its thread and DMs are theirs. */
  private async asOwner<T>(id: string, fn: () => Promise<T>): Promise<T> {
    return this.inLocaleOf((await this.api.orchestrations.threadView(id))?.view.owner_id, fn);
  }

  /** Only orchestrations started from Slack have a channel to show their steps in. */
  async relevant(entries: Array<EntryOf<OrchestrationKind>>): Promise<Set<number>> {
    const ids = [...new Set(entries.map((e) => e.event.orchestrationId))];
    if (!ids.length) return new Set();
    const inSlack = await this.addresses.addressed("orchestration", ids);
    return new Set(entries.filter((e) => inSlack.has(e.event.orchestrationId)).map((e) => e.id));
  }

  async handle(entry: EntryOf<OrchestrationKind>): Promise<Rendered> {
    return this.asOwner(entry.event.orchestrationId, () => this.render(entry));
  }

  private async render({ id: outboxId, event, orderingKey }: EntryOf<OrchestrationKind>): Promise<Rendered> {
    const id = event.orchestrationId;
    const loaded = await this.api.orchestrations.threadView(id);
    const address = await this.addresses.get("orchestration", id);
    if (!loaded || !address) return "ignored";
    const o = loaded.view;
    const channel = address.channel;
    let threadTs = address.threadTs;
    let fresh = false;
    if (!threadTs) {
      ({ threadTs } = await this.postStateMessage(
        { kind: "orchestration", id, key: `orch:${id}:root` },
        { outboxId, conversationId: null, channel, threadTs: null },
        orchestrationRoot(this.locale, o),
      ));
      this.pacer.edited(id);
      fresh = true;
    }
    await this.postSteps(outboxId, o, channel, threadTs);
    // A later event of this orchestration waits: it will edit the root, this one need not.
    if (fresh || (await this.api.events.laterPendingKinds(orderingKey, outboxId, 1)).length > 0)
      return "posted";
    this.pacer.check(id);
    await this.edit(channel, threadTs, orchestrationRoot(this.locale, o));
    this.pacer.edited(id);
    return "posted";
  }

  /** Tells the orchestration's owner by DM that its thread could not be posted or updated. */
  async reportFailure(entry: EntryOf<OrchestrationKind>, code: string): Promise<void> {
    return this.asOwner(entry.event.orchestrationId, () => this.tellFailure(entry, code));
  }

  private async tellFailure(
    { id: outboxId, event }: EntryOf<OrchestrationKind>,
    code: string,
  ): Promise<void> {
    const id = event.orchestrationId;
    const loaded = await this.api.orchestrations.threadView(id);
    const address = await this.addresses.get("orchestration", id);
    const owner = loaded?.view.owner_id;
    if (!loaded || !address || !isSlackUser(owner)) return;
    const where = channelMention(address.channel);
    // One notice per orchestration and cause, however many events fail.
    await this.tellDeliveryFailure({
      key: `orch:${id}:failure:${code}`,
      outboxId,
      conversationId: null,
      userId: owner,
      code,
      where,
      otherwise: () =>
        t(this.locale, "orch_view.delivery_failed", {
          name: escapeClip(loaded.view.name, 150),
          channel: where,
          code: escapeClip(code, 100),
        }),
    });
  }

  /** Posts, in order, every part of every history step not posted yet. */
  private async postSteps(
    outboxId: number,
    o: OrchestrationView,
    channel: string,
    threadTs: string,
  ): Promise<void> {
    const prefix = `orch:${o.id}:step:`;
    const posted = await this.poster.posts.postedKeysWithPrefix(prefix);
    for (const [n, event] of o.events.entries()) {
      const messages = stepMessages(this.locale, o, event);
      for (const [part, m] of messages.entries()) {
        const key = `${prefix}${n}:${part}`;
        if (posted.has(key)) continue;
        await this.poster.postOnce({
          key,
          outboxId,
          conversationId: null,
          purpose: "notice",
          channel,
          threadTs,
          text: m.text,
          blocks: m.blocks,
        });
      }
    }
  }
}
