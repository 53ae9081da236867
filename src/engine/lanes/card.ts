import fs from "node:fs";
import type { Kernel } from "../kernel.js";
import { emit } from "../outbox.js";
import { type Publishing, projectPublishing } from "../forge/index.js";
import { isForkLane } from "./forkLanes.js";
import { laneChanges, type LaneChanges } from "./changes.js";
import { laneOf } from "./lane.js";
import type { Lane } from "./schema.js";

// What a lane's card shows (issue 18, item 3), read for the notifier: the lane's changes (from its
// clone while it exists, else the summary kept when it was last read), where it stands, and how
// its work left (pushed, a pull request). The view (src/views/laneCard.ts) draws it.

/** The part of the changes kept in the row once the clone is gone: what the card lists, no diff. */
export interface LaneSummary {
  commits: Array<{ sha: string; subject: string }>;
  totalCommits: number;
  files: Array<{ path: string; added: number; removed: number; binary: boolean }>;
  totalFiles: number;
  added: number;
  removed: number;
}

/** Bounds of what a card lists and inlines; the whole diff goes to a file up to 1 MB. */
const CARD_LIMITS = { commits: 20, files: 40, diffBytes: 1_000_000 };

/** The card's state, as src/views/laneCard.ts takes it. */
export type LaneCardStateData =
  | { kind: "open" }
  | { kind: "conflict"; files: string[] }
  | {
      kind: "merged";
      by: string | null;
      revision: string;
      /** Null: merged before codexpi recorded how. */
      how: "fast-forward" | "merge-commit" | "already-merged" | null;
    }
  | { kind: "discarded"; by: string | null };

/** Everything the card of a conversation's lane shows. */
export interface LaneCardData {
  conversationId: string;
  /** The conversation's person: the card is written in their language. */
  personId: string | null;
  branch: string;
  base: string;
  changes: LaneSummary & { diff: string; diffBytes: number; diffTruncated: boolean };
  state: LaneCardStateData;
  pushed: { remote: string } | null;
  pullRequest: { url: string; number: number | null; state: "open" | "draft" | "merged" | "closed" } | null;
  /** The project asks a confirmation before a merge (its merge-confirmation setting). */
  confirmMerge: boolean;
  /** The project's name (the card's hints name it in the commands they give). */
  project: string;
  /** Whether Push and Open pull request can work (read while the lane is open; null once it ended). */
  publishing: Publishing | null;
}

/** The ref a lane's changes are counted from: its base branch as the clone knows it, else the commit it started at. */
const laneBaseRef = (lane: Pick<Lane, "base_branch" | "base_commit">): string =>
  lane.base_branch ? `refs/remotes/origin/${lane.base_branch}` : lane.base_commit;

/** The summary kept of changes (what the card lists once the clone is gone). */
const summaryOf = (c: LaneChanges): LaneSummary => ({
  commits: c.commits.slice(0, CARD_LIMITS.commits),
  totalCommits: c.totalCommits,
  files: c.files.slice(0, CARD_LIMITS.files),
  totalFiles: c.totalFiles,
  added: c.added,
  removed: c.removed,
});

const EMPTY: LaneSummary = { commits: [], totalCommits: 0, files: [], totalFiles: 0, added: 0, removed: 0 };

function keptSummary(lane: Lane): LaneSummary {
  if (!lane.summary) return EMPTY;
  try {
    return JSON.parse(lane.summary) as LaneSummary;
  } catch {
    return EMPTY;
  }
}

/** Reads a lane's changes from its clone and keeps their summary in its row. */
export async function readLaneChanges(
  engine: Pick<Kernel, "db" | "config">,
  lane: Lane,
): Promise<LaneChanges> {
  const changes = await laneChanges(engine.config.jail, lane.path, laneBaseRef(lane), CARD_LIMITS);
  await engine.db
    .updateTable("lanes")
    .set({ summary: JSON.stringify(summaryOf(changes)) })
    .where("conversation_id", "=", lane.conversation_id)
    .execute();
  return changes;
}

function stateOf(lane: Lane): LaneCardStateData {
  if (lane.status === "merged")
    return {
      kind: "merged",
      by: lane.ended_by,
      revision: lane.merged_revision ?? "",
      how: lane.merged_how,
    };
  if (lane.status === "discarded" || lane.status === "expired")
    return { kind: "discarded", by: lane.ended_by };
  const files = lane.conflict_files ? (JSON.parse(lane.conflict_files) as string[]) : null;
  return files ? { kind: "conflict", files } : { kind: "open" };
}

/**
 * The card of a conversation's lane, or null when it has none. An active lane's changes are read
 * from its clone (and their summary kept); an ended one shows the summary kept, without a diff.
 */
export async function laneCardData(
  engine: Pick<Kernel, "db" | "config">,
  conversationId: string,
): Promise<LaneCardData | null> {
  const lane = await laneOf(engine.db, conversationId);
  if (!lane) return null;
  const row = await engine.db
    .selectFrom("conversations as c")
    .innerJoin("projects as p", "p.id", "c.project_id")
    .selectAll("p")
    .select("c.user_id as person_id")
    .where("c.id", "=", conversationId)
    .executeTakeFirstOrThrow();
  const live = lane.status === "active" && fs.existsSync(lane.path);
  const host = { dataDir: engine.config.dataDir, jail: engine.config.jail };
  const changes = live
    ? await readLaneChanges(engine, lane)
    : { ...keptSummary(lane), diff: "", diffBytes: 0, diffTruncated: false };
  return {
    conversationId,
    personId: row.person_id,
    branch: lane.branch,
    base: lane.base_branch ?? lane.base_commit.slice(0, 12),
    changes,
    state: stateOf(lane),
    pushed: lane.pushed_remote ? { remote: lane.pushed_remote } : null,
    pullRequest: lane.pr_url
      ? { url: lane.pr_url, number: lane.pr_number, state: lane.pr_state ?? "open" }
      : null,
    confirmMerge: row.merge_confirmation_required === 1,
    project: row.name,
    // A lane from a fork's pull request is never pushed: its card offers neither Push nor a pull request.
    publishing: lane.status === "active" && !isForkLane(lane) ? await projectPublishing(row, host) : null,
  };
}

/**
 * Announces every open lane of a project (of all projects when `projectId` is null: the install's
 * token changed) as updated, so that their cards are redrawn with what can work now: a forge
 * setting or a stored token changed what Push and Open pull request can do.
 */
export async function redrawLaneCards(
  engine: Pick<Kernel, "db" | "clock">,
  projectId: string | null,
): Promise<void> {
  let lanes = engine.db.selectFrom("lanes").select("conversation_id").where("status", "=", "active");
  if (projectId !== null) lanes = lanes.where("project_id", "=", projectId);
  const open = await lanes.execute();
  await emit(
    engine.db,
    engine.clock.now(),
    ...open.map((l) => ({ kind: "lane.updated" as const, conversationId: l.conversation_id })),
  );
}
