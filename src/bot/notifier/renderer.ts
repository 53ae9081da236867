/** An outbox row as renderers see it. */
export interface OutboxRow {
  id: number;
  kind: string;
  payload: string;
  ordering_key: string | null;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
}

/** What handling an event did: `refreshed` lets consecutive refreshes of one thread collapse. */
export type Rendered = "refreshed" | "posted" | "ignored";

/** Turns some kinds of domain events into Slack messages. Slack errors propagate to the notifier. */
export interface EventRenderer {
  readonly kinds: ReadonlySet<string>;
  /** Of these rows (all of kinds this renderer handles), the ids with something to show in Slack. */
  relevant(rows: OutboxRow[]): Promise<Set<number>>;
  handle(outboxId: number, kind: string, payload: Record<string, unknown>): Promise<Rendered>;
  /** Tells the person concerned that a message could not be delivered, where possible. */
  reportFailure(outboxId: number, payload: Record<string, unknown>, code: string): Promise<void>;
}
