import type { ForgeDeps } from "./deps.js";
import { handleDelivery } from "./handling.js";
import type { SlackSide } from "./slackSide.js";
import type { Delivery } from "./store/deliveries.js";
import { DEFAULT_HANDLE } from "./store/threads.js";

// One comment, one handling: a project both polled and sent webhooks (or a webhook redelivered
// under a new id) journals the same comment twice, under two delivery ids. The comment's own id
// on the forge is its identity (a label's: its issue and name); the first delivery of it that
// does something is recorded under that identity (a notice), and any other is answered
// "duplicate".

const id = (v: unknown) => (typeof v === "number" || (typeof v === "string" && v !== "") ? String(v) : null);

type Carried = {
  action?: unknown;
  object_kind?: unknown;
  changes?: { labels?: { previous?: Array<{ title?: unknown }>; current?: Array<{ title?: unknown }> } };
  comment?: { id?: unknown };
  object_attributes?: { id?: unknown; iid?: unknown };
  issue?: { number?: unknown };
  label?: { name?: unknown };
} | null;

/** The labels a GitLab Issue Hook says were added (lower-case). */
function gainedLabels(p: Carried): string[] {
  const titles = (l: Array<{ title?: unknown }> | undefined) =>
    (l ?? []).map((x) => (typeof x.title === "string" ? x.title.toLowerCase() : ""));
  const before = new Set(titles(p?.changes?.labels?.previous));
  return titles(p?.changes?.labels?.current).filter((l) => l && !before.has(l));
}

/**
 * The project's label (`label`) given to an issue, as `label:<project>:<forge>:<issue>:<label>`:
 * a webhook's `issues` (Issue Hook) delivery names no event id, so the issue and the label are its
 * identity. Only for a polled project (where it can come twice), and only once it started or
 * continued a conversation.
 */
function labelIdentity(d: Pick<Delivery, "forge" | "event" | "project_id">, p: Carried, label: string) {
  const wanted = label.toLowerCase();
  const given =
    d.forge === "github"
      ? d.event === "issues" &&
        p?.action === "labeled" &&
        String(p.label?.name ?? "").toLowerCase() === wanted
      : d.event === "Issue Hook" && gainedLabels(p).includes(wanted);
  const issue = d.forge === "github" ? id(p?.issue?.number) : id(p?.object_attributes?.iid);
  return given && issue ? `label:${d.project_id}:${d.forge}:${issue}:${wanted}` : null;
}

/** `comment:<project>:<forge>:<kind>:<id>` for a delivery carrying a comment, else null. */
function commentIdentity(d: Pick<Delivery, "forge" | "event" | "project_id">, p: Carried): string | null {
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
export async function handleOnce(
  deps: ForgeDeps,
  slack: SlackSide,
  d: Delivery,
  polled: (projectId: string) => Promise<boolean>,
): Promise<string> {
  let p: Carried;
  try {
    p = JSON.parse(d.body) as Carried;
  } catch {
    p = null;
  }
  const comment = commentIdentity(d, p);
  const handle = comment ? null : ((await deps.threads.settings(d.project_id)).handle ?? DEFAULT_HANDLE);
  const label = handle ? labelIdentity(d, p, handle) : null;
  const identity = comment ?? (label && (await polled(d.project_id)) ? label : null);
  if (identity && (await deps.threads.noticed(identity))) return "duplicate";
  const outcome = await handleDelivery(deps, slack, d);
  const acted = comment ? outcome !== "ignored" : outcome === "started" || outcome === "continued";
  if (identity && acted) await deps.threads.firstNotice(identity, deps.clock.now());
  return outcome;
}
