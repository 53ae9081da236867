import { Gitlab } from "@gitbeaker/rest";
import { EngineError } from "../errors.js";
import { statusOf } from "./forgeErrors.js";
import type {
  ForgeClient,
  ForgeTarget,
  PullRequest,
  PullRequestInput,
  PullRequestState,
} from "./forgeTypes.js";

// GitLab (gitlab.com or self-hosted) through Gitbeaker (`@gitbeaker/rest`): the documented
// endpoints (`POST /projects/:id/merge_requests`, `GET …/merge_requests?source_branch=…`,
// `GET …/merge_requests/:iid`), `:id` a URL-encoded path or a number, the token as PRIVATE-TOKEN.

type GitlabApi = InstanceType<typeof Gitlab<false>>;

/** Gitbeaker takes the instance's address and appends `/api/v4` itself. */
function gitlab(target: ForgeTarget): GitlabApi {
  const base = target.forgeUrl.replace(/\/+$/, "");
  if (!/\/api\/v4$/.test(base))
    throw new EngineError("invalid", "forge_url_invalid", { value: target.forgeUrl });
  return new Gitlab({ host: base.replace(/\/api\/v4$/, ""), token: target.token });
}

/** A project id as the API takes it: a number, or the path (Gitbeaker URL-encodes it). */
function projectId(forgeRepo: string): string | number {
  return /^\d+$/.test(forgeRepo) ? Number(forgeRepo) : forgeRepo;
}

/** GitLab's states: opened, closed, locked (still open, being merged), merged. */
function stateOf(state: string): PullRequestState {
  if (state === "merged") return "merged";
  return state === "opened" || state === "locked" ? "open" : "closed";
}

/** The open merge request of `head` into `base`, if any (after GitLab's "already exists" 409). */
async function existing(api: GitlabApi, input: PullRequestInput): Promise<PullRequest | null> {
  const found = await api.MergeRequests.all({
    projectId: projectId(input.forgeRepo),
    sourceBranch: input.head,
    targetBranch: input.base,
    state: "opened",
  });
  const mr = found[0];
  return mr ? { number: mr.iid, url: mr.web_url, state: stateOf(mr.state), existing: true } : null;
}

export const gitlabForge: ForgeClient = {
  async open(input) {
    const api = gitlab(input);
    try {
      const mr = await api.MergeRequests.create(
        projectId(input.forgeRepo),
        input.head,
        input.base,
        input.title,
        {
          description: input.body,
        },
      );
      return { number: mr.iid, url: mr.web_url, state: stateOf(mr.state), existing: false };
    } catch (e) {
      if (statusOf(e) === 409 && /already exists/i.test(e instanceof Error ? e.message : "")) {
        const found = await existing(api, input);
        if (found) return found;
      }
      throw e;
    }
  },
  async state(target, number) {
    const mr = await gitlab(target).MergeRequests.show(projectId(target.forgeRepo), number);
    return { state: stateOf(mr.state), url: mr.web_url };
  },
};
