import type { WebClient } from "@slack/web-api";
import type { Database } from "../../engine/database.js";
import type { OrchestrationView } from "../../engine/orchestrations/index.js";
import { orchestrationThreadView } from "../../engine/read/orchestrations.js";
import { t, type Locale } from "../../i18n/index.js";
import { channelMention, escapeClip } from "../../views/mrkdwn.js";
import { orchestrationRoot, stepMessages } from "../../views/orchestrations.js";
import { Defer } from "./defer.js";
import type { SlackAddresses } from "../store/addresses.js";
import type { SlackPoster } from "./poster.js";
import { currentLocale, inLocale, type UserLocales } from "../userLocales.js";
import { laterPendingKinds } from "../../engine/outboxQueue.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

const MIN_EDIT_INTERVAL_MS = 1_000;
type OrchestrationKind = "orchestration.updated";

/**
 * Orchestrations started from Slack, in their thread. The root (`orch:<id>:root`, its ts recorded
 * as the orchestration's Slack address) shows the current state and the buttons it allows,
 * edited at most once a second; each history step is posted once in the thread
 * (`orch:<id>:step:<n>:<part>`), in order, whatever event brought the notifier here. Renders the
 * current state from the database, never the event's: late or repeated events show no stale state.
 */
export class OrchestrationMessages implements Renderer<OrchestrationKind> {
  private readonly lastEdit = new Map<string, number>();

  constructor(
    readonly db: Database,
    readonly client: WebClient,
    readonly poster: SlackPoster,
    readonly addresses: SlackAddresses,
    readonly fallback: Locale,
    private readonly locales?: UserLocales,
  ) {}

  /** The language of the orchestration's owner, set around each event (see `handle`). */
  private get locale(): Locale {
    return currentLocale(this.fallback);
  }

  /** Runs `fn` in the language of the orchestration's owner: its thread and DMs are theirs. */
  private async asOwner<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const ownerId = (await orchestrationThreadView(this.db, id))?.view.owner_id;
    return inLocale(this.locales && ownerId ? await this.locales.of(ownerId) : this.fallback, fn);
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
    const loaded = await orchestrationThreadView(this.db, id);
    const address = await this.addresses.get("orchestration", id);
    if (!loaded || !address) return "ignored";
    const o = loaded.view;
    const channel = address.channel;
    let threadTs = address.threadTs;
    let fresh = false;
    if (!threadTs) {
      const root = orchestrationRoot(this.locale, o);
      threadTs = await this.poster.postOnce({
        key: `orch:${id}:root`,
        outboxId,
        conversationId: null,
        purpose: "status",
        channel,
        threadTs: null,
        text: root.text,
        blocks: root.blocks,
      });
      await this.addresses.record("orchestration", id, { channel, threadTs, statusTs: threadTs });
      this.lastEdit.set(id, Date.now());
      fresh = true;
    }
    await this.postSteps(outboxId, o, channel, threadTs);
    // A later event of this orchestration waits: it will edit the root, this one need not.
    if (fresh || (await laterPendingKinds(this.db, orderingKey, outboxId, 1)).length > 0) return "posted";
    const wait = (this.lastEdit.get(id) ?? 0) + MIN_EDIT_INTERVAL_MS - Date.now();
    if (wait > 0) throw new Defer(wait);
    const root = orchestrationRoot(this.locale, o);
    await this.client.chat.update({ channel, ts: threadTs, text: root.text, blocks: root.blocks });
    this.lastEdit.set(id, Date.now());
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
    const loaded = await orchestrationThreadView(this.db, id);
    const address = await this.addresses.get("orchestration", id);
    const owner = loaded?.view.owner_id;
    if (!loaded || !address || !owner || !/^[UW][A-Z0-9]+$/.test(owner)) return;
    const dm = await this.client.conversations.open({ users: owner });
    const channel = dm.channel?.id;
    if (!channel) return;
    const text =
      code === "not_in_channel" || code === "channel_not_found"
        ? t(this.locale, "notice.not_in_channel", { channel: channelMention(address.channel) })
        : t(this.locale, "orch_view.delivery_failed", {
            name: escapeClip(loaded.view.name, 150),
            channel: channelMention(address.channel),
            code: escapeClip(code, 100),
          });
    // One notice per orchestration and cause, however many events fail.
    await this.poster.postOnce({
      key: `orch:${id}:failure:${code}`,
      outboxId,
      conversationId: null,
      purpose: "notice",
      channel,
      threadTs: null,
      text,
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
