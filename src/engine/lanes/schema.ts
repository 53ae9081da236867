import type { Generated, Selectable } from "kysely";

// Row type of db/migrations/0019_lanes. Times are epoch milliseconds.

/** Where a lane stands: usable while `active`; its clone is gone in every other state. */
export type LaneStatus = "active" | "merged" | "discarded" | "expired";

/** A conversation's lane: a sealed clone of its project on a branch of its own. */
export interface LanesTable {
  conversation_id: string;
  project_id: string;
  /** The clone, under `<data dir>/lanes/<project id>/<conversation id>`. */
  path: string;
  /** `codexpi/<short title>-<short id>`: lives in the clone only (until a merge or push brings it out). */
  branch: string;
  /** The project's branch the lane started from (null: the project's HEAD was detached). */
  base_branch: string | null;
  /** The exact commit the lane's branch was made at: the card's diff is base_commit..branch. */
  base_commit: string;
  status: LaneStatus;
  created_at: number;
  /** The last turn that ran in the lane (or when it was made): the retention sweep's clock. */
  updated_at: number;
  finished_at: number | null;
  /** The last changes read, as the card lists them (JSON `LaneSummary`, no diff; migration 0021). */
  summary: Generated<string | null>;
  /** The remote the branch was pushed to, and when. */
  pushed_remote: Generated<string | null>;
  pushed_at: Generated<number | null>;
  /** Its pull (merge) request, as the forge last said. */
  pr_url: Generated<string | null>;
  pr_number: Generated<number | null>;
  pr_state: Generated<"open" | "draft" | "merged" | "closed" | null>;
  /** The files the last refused merge named (JSON array); null once merged or never refused. */
  conflict_files: Generated<string | null>;
  /** Who merged or discarded it (null: the retention sweep, or not ended). */
  ended_by: Generated<string | null>;
  /** The project's commit after its merge. */
  merged_revision: Generated<string | null>;
  /** How the merge went (migration 0036); null: not merged, or merged before codexpi recorded it. */
  merged_how: Generated<"fast-forward" | "merge-commit" | "already-merged" | null>;
  /** What prepared it: the setup's hash, `none` (no setup); null: not prepared yet (migration 0032). */
  setup_hash: Generated<string | null>;
}

/** A lane row as read. */
export type Lane = Selectable<LanesTable>;

// The engine's schema (src/engine/schema.ts) is shared; this aggregate adds its table to it.
declare module "../schema.js" {
  interface DB {
    lanes: LanesTable;
  }
}
