import type { ActivityKind, Progress } from "../engine/api/model.js";
import { t, type Locale } from "../i18n/index.js";
import { redactText } from "../redaction.js";
import { reconnectingLine } from "./progress.js";

/** One chunk of a Slack stream (chat.startStream / appendStream / stopStream), as @slack/types shapes it. */
export type StreamChunk =
  | { type: "markdown_text"; text: string }
  | { type: "plan_update"; title: string }
  | {
      type: "task_update";
      id: string;
      title: string;
      status: "pending" | "in_progress" | "complete" | "error";
      details?: string;
    };

/** What a stream already shows, so that the next render sends only what changed. */
export interface Streamed {
  /** The last title and status sent for each task, by task id. */
  tasks: Record<string, string>;
  planShown: boolean;
  /** The tool activity shown as running (its task id and what it was), if any. */
  activity: { id: string; kind: ActivityKind; detail: string | null; attempt?: number } | null;
  /** How many tool activities were shown (their ids are `a1`, `a2`, …). */
  activities: number;
  /** The agent message streamed so far (the current one), or null before any. */
  text: string | null;
}

/** A stream that shows nothing yet. */
export const nothingStreamed = (): Streamed => ({
  tasks: {},
  planShown: false,
  activity: null,
  activities: 0,
  text: null,
});

// Activities that are a step of their own ("commands as they start and finish"); thinking and
// writing come and go between them and would only add noise.
// Reconnecting is one too: a turn that cannot reach its model says so (one task, retitled at each attempt).
const TOOL_KINDS: ReadonlySet<ActivityKind> = new Set([
  "command",
  "reading",
  "searching",
  "editing",
  "reconnecting",
]);
const TITLE_MAX = 150;
const PLAN_STEPS = 20;

const clip = (s: string, max: number) => {
  const l = redactText(s).replace(/\s+/g, " ").trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
};

/**
 * The chunks that bring a stream from what it shows (`sent`) to the progress `p`, and what it
 * shows then. The plan as tasks (`plan_update` once, a `task_update` per changed step), each tool
 * activity as a task that starts and completes, and the agent's text as markdown once other work
 * follows it (the last text may be the answer, posted once on its own): only the new suffix while
 * a message grows, the whole of a new message after a blank line. `ending` shows the
 * last state with every activity complete (the turn is over), or the one under way marked as an
 * error (stopped, for a cancel) when the turn did not end `done`. Pure: the renderer keeps `sent`.
 */
export function progressChunks(
  locale: Locale,
  sent: Streamed,
  p: Progress | null,
  ending = false,
  endedAs: "done" | "failed" | "cancelled" = "done",
): { chunks: StreamChunk[]; next: Streamed } {
  const chunks: StreamChunk[] = [];
  const tasks = { ...sent.tasks };
  const task = (c: Extract<StreamChunk, { type: "task_update" }>) => {
    const signature = `${c.status}|${c.title}|${c.details ?? ""}`;
    if (tasks[c.id] === signature) return;
    tasks[c.id] = signature;
    chunks.push(c);
  };

  // A tool activity that is no longer the current one has finished.
  const tool = p && TOOL_KINDS.has(p.kind) ? p : null;
  let activity = sent.activity;
  let activities = sent.activities;
  const interrupted = (a: NonNullable<Streamed["activity"]>) => {
    const q = activityProgress(a);
    const title =
      q.kind === "reconnecting"
        ? reconnectingLine(locale, q, (d) => clip(d, 100))
        : q.detail?.trim()
          ? clip(q.detail, TITLE_MAX)
          : t(locale, `progress.kind.${q.kind}`);
    const details = endedAs === "cancelled" ? t(locale, "progress.stopped") : undefined;
    task({ type: "task_update", id: a.id, title, status: "error", ...(details ? { details } : {}) });
  };
  const current = (id: string, status: "in_progress" | "complete", q: Progress) => {
    const kind = t(locale, `progress.kind.${q.kind}`);
    if (q.kind === "reconnecting")
      return task({
        type: "task_update",
        id,
        title: reconnectingLine(locale, q, (d) => clip(d, 100)),
        status,
      });
    const detail = q.detail?.trim() ? clip(q.detail, TITLE_MAX) : null;
    task({ type: "task_update", id, title: detail ?? kind, status, ...(detail ? { details: kind } : {}) });
  };
  // Retries are one activity whatever their error: the task says the newest attempt.
  const same = (a: Streamed["activity"], q: Progress | null) =>
    a !== null && a.kind === q?.kind && (a.kind === "reconnecting" || a.detail === (q.detail ?? null));
  if (activity && !same(activity, tool)) {
    current(activity.id, "complete", activityProgress(activity));
    activity = null;
  }
  if (activity && tool && activity.kind === "reconnecting") {
    activity = { ...activity, detail: tool.detail ?? null, attempt: tool.attempt };
    current(activity.id, "in_progress", tool);
  }

  let planShown = sent.planShown;
  if (p?.plan?.length) {
    if (!planShown) chunks.push({ type: "plan_update", title: t(locale, "stream.plan_title") });
    planShown = true;
    const firstOpen = p.plan.findIndex((s) => !s.done);
    for (const [i, step] of p.plan.slice(0, PLAN_STEPS).entries())
      task({
        type: "task_update",
        id: `p${i + 1}`,
        title: clip(step.text, TITLE_MAX),
        status: step.done ? "complete" : i === firstOpen ? "in_progress" : "pending",
      });
  }

  // The agent's text is shown once it is followed by other work: while it is the last thing the
  // agent did ("writing"), it may be the answer, which is posted as a message of its own once
  // the turn ends. Streamed too, it would be read twice (the stream stays in the thread).
  let text = sent.text;
  const written = p?.text?.trim() && p.kind !== "writing" ? p.text.trim() : null;
  if (written && written !== text) {
    const grows = text !== null && written.startsWith(text);
    const added = grows ? written.slice((text ?? "").length) : `${text === null ? "" : "\n\n"}${written}`;
    if (added) chunks.push({ type: "markdown_text", text: added });
    text = written;
  }

  if (tool && !activity) {
    activities += 1;
    activity = { id: `a${activities}`, kind: tool.kind, detail: tool.detail ?? null, attempt: tool.attempt };
    current(activity.id, ending ? "complete" : "in_progress", tool);
  }
  if (ending && activity) {
    // A turn stopped or failed mid-activity: its command was killed or cut short, never "done".
    if (endedAs === "done") current(activity.id, "complete", activityProgress(activity));
    else interrupted(activity);
    activity = null;
  }

  return { chunks, next: { tasks, planShown, activity, activities, text } };
}

/** A shown activity as the progress it was. */
const activityProgress = (a: NonNullable<Streamed["activity"]>): Progress => ({
  kind: a.kind,
  detail: a.detail,
  plan: null,
  ...(a.attempt ? { attempt: a.attempt } : {}),
});

/**
 * A chunk that keeps an idle stream alive (Slack stops a stream after a long gap): the running
 * activity again, else the plan's title. Null when the stream shows neither.
 */
export function keepAliveChunk(locale: Locale, sent: Streamed): StreamChunk | null {
  if (sent.activity) {
    const { kind, detail } = sent.activity;
    const label = t(locale, `progress.kind.${kind}`);
    const title =
      kind === "reconnecting"
        ? reconnectingLine(locale, activityProgress(sent.activity), (d) => clip(d, 100))
        : detail?.trim()
          ? clip(detail, TITLE_MAX)
          : label;
    return {
      type: "task_update",
      id: sent.activity.id,
      title,
      status: "in_progress",
      ...(detail && kind !== "reconnecting" ? { details: label } : {}),
    };
  }
  return sent.planShown ? { type: "plan_update", title: t(locale, "stream.plan_title") } : null;
}
