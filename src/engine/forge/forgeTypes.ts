import type { ForgeKind } from "./remoteUrl.js";

// The shapes a forge client (github.ts, gitlab.ts) and pullRequests.ts share: apart, so that the
// clients and the module choosing between them import neither each other.

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
