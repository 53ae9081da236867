import { EngineError } from "../errors.js";
import { githubForge } from "./github.js";
import { gitlabForge } from "./gitlab.js";
import { forgeFailure } from "./forgeErrors.js";
import type { ForgeKind } from "./remoteUrl.js";

/** Where a pull (merge) request goes, and the token that opens it. */
export interface ForgeTarget {
  forge: ForgeKind;
  /** The API's base URL: https://api.github.com, https://host/api/v3, https://host/api/v4. */
  forgeUrl: string;
  /** `owner/name`, GitLab's `group/sub/name`, or GitLab's numeric project id. */
  forgeRepo: string;
  token: string;
}

/** A pull (merge) request to open: `head` into `base`. */
export interface PullRequestInput extends ForgeTarget {
  head: string;
  base: string;
  title: string;
  body: string;
}

/** A pull (merge) request's state, as codexpi shows it. */
export type PullRequestState = "open" | "closed" | "merged";

/** An opened (or found) pull request. */
export interface PullRequest {
  /** GitHub's number, GitLab's iid (the `!N`). */
  number: number;
  url: string;
  state: PullRequestState;
  /** True when one was already open for this branch and is answered instead of a new one. */
  existing: boolean;
}

/** What one forge's client does; each maps its API's answers to these shapes. */
export interface ForgeClient {
  open(input: PullRequestInput): Promise<PullRequest>;
  state(target: ForgeTarget, number: number): Promise<{ state: PullRequestState; url: string }>;
}

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
