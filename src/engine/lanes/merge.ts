import { t, type Locale } from "../../i18n/index.js";
import type { GitJailMode } from "../isolation/index.js";
import {
  checkoutRefusal,
  fetchFromClone,
  fetchIntoClone,
  type MergeResult,
  mergeIntoCheckout,
  startMergeInClone,
} from "../workspaces/index.js";

// A lane's work leaving as a merge into the project's checkout, with the guarantees of an
// orchestration's merge (the same code: workspaces' mergeIntoCheckout), and the way back when the
// base moved and conflicts: the base brought into the lane, its merge started there, for the
// agent to resolve in its next turn.

/** What a lane's merge needs: where, from which clone and branch, into which branch. */
export interface LaneMerge {
  /** The project's own checkout (its path). */
  checkout: string;
  /** The lane's sealed clone. */
  clone: string;
  /** The lane's branch in the clone (`codexpi/<slug>-<id>`), brought into the checkout under that name. */
  branch: string;
  /** The checkout's branch the lane merges into (it must be the one checked out there). */
  base: string;
  /** The language of the merge commit's message. */
  locale: Locale;
}

/**
 * Merges a lane's branch into `base` of the project's checkout: refused (and nothing changed, not
 * even the lane's branch brought in) while another branch is checked out or tracked files have
 * uncommitted changes; a fast-forward when `base` has not moved, else a merge commit; on conflict
 * the checkout is left as it was and the result names the conflicting files.
 */
export async function mergeLane(jail: GitJailMode, lane: LaneMerge): Promise<MergeResult> {
  const refused = await checkoutRefusal(jail, lane.checkout, lane.base);
  if (refused) return refused;
  const revision = await fetchFromClone(jail, lane.checkout, lane.clone, lane.branch);
  return mergeIntoCheckout(jail, lane.checkout, {
    branch: lane.base,
    revision,
    message: t(lane.locale, "lane.merge_message", { branch: lane.branch, base: lane.base }),
  });
}

/** Where a lane's clone keeps its base branch as last brought in: as a clone of the project would. */
const laneBaseRef = (base: string): string => `refs/remotes/origin/${base}`;

/** The base brought into a lane, and the merge of it started there. */
export interface LaneBaseUpdate {
  /** The base's revision, now in the clone at `ref`. */
  revision: string;
  ref: string;
  /** Whether a merge is under way in the clone (false: the lane already contains the base). */
  merging: boolean;
  /** The files whose conflict markers the agent is to resolve (empty: the merge is clean, only staged). */
  conflicts: string[];
}

/**
 * Brings the project's `base` branch into the lane's clone (the project only read, the clone's
 * seal checked, jailed) and starts merging it into the lane's branch there, leaving conflicts for
 * the agent: the follow-up `conflictFollowUpPrompt` asks it to resolve them, and the commit after
 * its turn (`commitClone`) records the merge. The clone must have nothing uncommitted.
 */
export async function updateLaneBase(
  jail: GitJailMode,
  lane: Pick<LaneMerge, "checkout" | "clone" | "base">,
): Promise<LaneBaseUpdate> {
  const ref = laneBaseRef(lane.base);
  const revision = await fetchIntoClone(jail, lane.clone, lane.checkout, lane.base, ref);
  const started = await startMergeInClone(jail, lane.clone, revision);
  return { revision, ref, ...started };
}

/** At most this many files are named in the follow-up (the agent sees the rest in `git status`). */
const PROMPT_FILES = 50;

/**
 * The follow-up "Ask the agent to merge <base>" sends to the lane's conversation, once
 * `updateLaneBase` started the merge: resolve the named files' conflicts, keep both sides' intent,
 * leave the commit to codexpi.
 */
export function conflictFollowUpPrompt(locale: Locale, base: string, files: readonly string[]): string {
  const listed = files.slice(0, PROMPT_FILES).map((f) => `- \`${f.replace(/[`\n\r]/g, "?")}\``);
  if (files.length > PROMPT_FILES) listed.push(t(locale, "common.more", { n: files.length - PROMPT_FILES }));
  return t(locale, "prompt.lane_merge_base", {
    base,
    ref: `origin/${base}`,
    files: listed.length ? listed.join("\n") : t(locale, "prompt.lane_merge_base_no_files"),
  });
}
