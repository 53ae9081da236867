import { EngineError } from "../errors.js";
import { FORK_BRANCH_PREFIX } from "../forge/index.js";

// A lane started from a fork's pull request (issue 33, item 2): its base is the branch codexpi
// fetched the pull request's head into (`codexpi-fork/pr-N`, `codexpi-fork/mr-N`), which holds
// someone else's code. Such a lane is set up without the project's setup secrets, and is never
// pushed — not to the fork, not to the project's remote, not as a pull request of its own.

/** Whether a lane's base is a fork's pull request's head. */
export const isForkLane = (lane: { base_branch: string | null }): boolean =>
  lane.base_branch?.startsWith(FORK_BRANCH_PREFIX) ?? false;

/** Refuses to push (or open as a pull request) a lane started from a fork's pull request. */
export function assertNotFromFork(lane: { base_branch: string | null }): void {
  if (isForkLane(lane))
    throw new EngineError("forbidden", "lane_from_fork", { branch: lane.base_branch ?? "" });
}
