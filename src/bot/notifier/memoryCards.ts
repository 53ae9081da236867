import { memoryCard } from "../../views/memory.js";
import { RendererBase } from "./rendererBase.js";
import type { EntryOf, Renderer, Rendered } from "./renderer.js";

type Kinds = "memory.proposed" | "memory.updated";

/**
 * An agent's proposed note (issue 34): its card is posted once in the conversation's thread, and
 * redrawn when someone keeps, edits or discards it. A conversation with no thread has no card:
 * its proposal waits in `/codex memory`-less silence, never kept without a click.
 */
export class MemoryCards extends RendererBase implements Renderer<Kinds> {
  relevant(entries: Array<EntryOf<Kinds>>): Promise<Set<number>> {
    return this.fromSlackConversations(entries);
  }

  async handle(entry: EntryOf<Kinds>): Promise<Rendered> {
    const { id: outboxId, event } = entry;
    const note = await this.api.memory.card(event.noteId);
    if (!note) return "ignored";
    const key = `memory-card:${note.id}`;
    const address = await this.addresses.get("conversation", event.conversationId);
    if (!address) return "ignored";
    const view = memoryCard(this.locale, note);
    if (event.kind === "memory.updated") return (await this.editPosted(key, view)) ? "posted" : "ignored";
    await this.poster.postOnce({
      key,
      outboxId,
      conversationId: event.conversationId,
      purpose: "notice",
      channel: address.channel,
      threadTs: address.threadTs ?? null,
      text: view.text,
      blocks: view.blocks,
    });
    return "posted";
  }

  async reportFailure(): Promise<void> {
    // A card lost: `/codex memory` says what is kept; a proposal never becomes a note by itself.
  }
}
