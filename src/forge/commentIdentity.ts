import type { ForgeDeps } from "./deps.js";
import { handleDelivery } from "./handling.js";
import type { SlackSide } from "./slackSide.js";
import type { Delivery } from "./store/deliveries.js";

// One comment, one handling: a project both polled and sent webhooks (or a webhook redelivered
// under a new id) journals the same comment twice, under two delivery ids. The comment's own id
// on the forge is its identity; the first delivery of it that does something is recorded under
// that identity (a notice), and any other is answered "duplicate".

const id = (v: unknown) => (typeof v === "number" || (typeof v === "string" && v !== "") ? String(v) : null);

/** `comment:<project>:<forge>:<kind>:<id>` for a delivery carrying a comment, else null. */
function commentIdentity(d: Pick<Delivery, "forge" | "event" | "project_id" | "body">): string | null {
  let p: { comment?: { id?: unknown }; object_attributes?: { id?: unknown } } | null;
  try {
    p = JSON.parse(d.body) as typeof p;
  } catch {
    return null;
  }
  const kind =
    d.forge === "github"
      ? d.event === "issue_comment"
        ? "issue_comment"
        : d.event === "pull_request_review_comment"
          ? "review_comment"
          : null
      : d.event === "Note Hook"
        ? "note"
        : null;
  const found = kind === "note" ? id(p?.object_attributes?.id) : kind ? id(p?.comment?.id) : null;
  return kind && found ? `comment:${d.project_id}:${d.forge}:${kind}:${found}` : null;
}

/**
 * Handles a delivery unless its comment was handled already under another delivery id. Recorded
 * once handled (a failure leaves it to the retry, or to the twin); a comment that was only
 * "ignored" is not recorded (its twin is ignored too, and most comments are).
 */
export async function handleOnce(deps: ForgeDeps, slack: SlackSide, d: Delivery): Promise<string> {
  const identity = commentIdentity(d);
  if (identity && (await deps.threads.noticed(identity))) return "duplicate";
  const outcome = await handleDelivery(deps, slack, d);
  if (identity && outcome !== "ignored") await deps.threads.firstNotice(identity, deps.clock.now());
  return outcome;
}
