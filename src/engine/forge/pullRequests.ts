import { EngineError } from "../errors.js";
import { githubForge } from "./github.js";
import { gitlabForge } from "./gitlab.js";
import { forgeFailure } from "./forgeErrors.js";
import type {
  ForgeClient,
  PullRequest,
  PullRequestInput,
  ForgeTarget,
  PullRequestState,
} from "./forgeTypes.js";
import type { ForgeKind } from "./remoteUrl.js";

export type { PullRequest } from "./forgeTypes.js";

function client(forge: ForgeKind): ForgeClient {
  if (forge === "github") return githubForge;
  if (forge === "gitlab") return gitlabForge;
  throw new EngineError("invalid", "forge_kind_invalid", { value: String(forge) });
}

/**
 * Opens a pull (merge) request of `head` into `base`; when the forge says one is already open for
 * this branch, answers that one (`existing`). Failures are EngineErrors from the catalogue
 * (refused token, unknown repository, refused request, forge unreachable) that never hold the token.
 */
export async function openPullRequest(input: PullRequestInput): Promise<PullRequest> {
  try {
    return await client(input.forge).open(input);
  } catch (e) {
    throw forgeFailure(e, input);
  }
}

/** A pull (merge) request's state and link, read back from the forge. */
export async function pullRequestState(
  target: ForgeTarget,
  number: number,
): Promise<{ state: PullRequestState; url: string }> {
  try {
    return await client(target.forge).state(target, number);
  } catch (e) {
    throw forgeFailure(e, target);
  }
}
