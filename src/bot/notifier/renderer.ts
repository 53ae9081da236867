/** A parsed outbox entry of some kinds. */
export type EntryOf<K extends EventKind> = OutboxEntry<EventOf<K>>;

/** What handling an event did: `refreshed` lets consecutive refreshes of one thread collapse. */
export type Rendered = "refreshed" | "posted" | "ignored";

/** Turns the events of kinds `K` into Slack messages. Slack errors propagate to the notifier. */
export interface Renderer<K extends EventKind> {
  /** Of these entries, the ids with something to show in Slack. */
  relevant(entries: Array<EntryOf<K>>): Promise<Set<number>>;
  handle(entry: EntryOf<K>): Promise<Rendered>;
  /** Tells the person concerned that a message could not be delivered, where possible. */
  reportFailure(entry: EntryOf<K>, code: string): Promise<void>;
}

/**
 * What the notifier does with each kind: a renderer, or `"ignored"` (said explicitly, with the
 * reason beside it). A kind added to the engine fails to compile here until it is one or the other.
 */
export type RendererMap = { [K in EventKind]: Renderer<K> | "ignored" };
import type { EventKind, EventOf, OutboxEntry } from "../../engine/api/model.js";
