/** A request's unique Slack key (its de-duplication and replay refusal) and its kind. */
export interface IntakeKey {
  key: string;
  kind: "command" | "action" | "view" | "event";
}

/** The signature headers of a signed HTTP request, carried to the intake by the receiver. */
export interface SignedHeaders {
  slackTimestamp?: string;
  slackSignature?: string;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * The key of a request that asks for work, or null for one that does not (SSL checks, URL
 * verification, options, closed modals). As DESIGN.md has it: events by `event_id`; commands by
 * signature and timestamp (Socket Mode has no signature: its `trigger_id`, unique per
 * invocation); actions by the action's ts and the user; view submissions by their `trigger_id`.
 */
export function intakeKeyOf(body: Record<string, unknown>, signed: SignedHeaders = {}): IntakeKey | null {
  if (str(body.command)) {
    if (signed.slackTimestamp && signed.slackSignature)
      return { key: `sig:${signed.slackTimestamp}:${signed.slackSignature}`, kind: "command" };
    const trigger = str(body.trigger_id);
    return trigger ? { key: `cmd:${trigger}`, kind: "command" } : null;
  }
  if (body.type === "event_callback") {
    const id = str(body.event_id);
    return id ? { key: id, kind: "event" } : null;
  }
  if (body.type === "block_actions") {
    const action = (Array.isArray(body.actions) ? body.actions[0] : null) as { action_ts?: unknown } | null;
    const user = str((body.user as { id?: unknown } | undefined)?.id);
    const ts = str(action?.action_ts) ?? str(body.trigger_id);
    return ts && user ? { key: `action:${ts}:${user}`, kind: "action" } : null;
  }
  if (body.type === "view_submission") {
    const trigger = str(body.trigger_id);
    const view = str((body.view as { id?: unknown } | undefined)?.id);
    return trigger ? { key: `view:${view ?? ""}:${trigger}`, kind: "view" } : null;
  }
  return null;
}

/**
 * A Slack message's identity, (channel, ts): the key its prompt is queued under, whichever way
 * Slack delivered it (`app_mention`, `message`, a `file_share` twin, each with its own `event_id`,
 * retries on top). The queue's unique key on it lets the message start one turn, in either order
 * and across processes; the intake's `event_id` only de-duplicates one delivery's retries.
 */
export const messageKeyOf = (channel: string, ts: string): string => `msg:${channel}:${ts}`;
