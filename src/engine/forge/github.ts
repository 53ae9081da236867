import { Octokit } from "@octokit/rest";
import { EngineError } from "../errors.js";
import { statusOf } from "./forgeErrors.js";
import type {
  ForgeClient,
  ForgeTarget,
  PullRequest,
  PullRequestInput,
  PullRequestState,
} from "./forgeTypes.js";

// GitHub and GitHub Enterprise through Octokit (`@octokit/rest`): the documented endpoints
// (`POST /repos/{owner}/{repo}/pulls`, `GET …/pulls?head=owner:branch`, `GET …/pulls/{n}`), the
// token as `Authorization`, Enterprise by its base URL (`https://host/api/v3`).

const SILENT = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const TIMEOUT_MS = 30_000;

function octokit(target: ForgeTarget): Octokit {
  return new Octokit({
    auth: target.token,
    baseUrl: target.forgeUrl.replace(/\/+$/, ""),
    userAgent: "codexpi",
    // Octokit's logger writes to the console; codexpi logs through its own (redacted) logger.
    log: SILENT,
  });
}

function ownerRepo(forgeRepo: string): { owner: string; repo: string } {
  const [owner, repo, ...rest] = forgeRepo.split("/");
  if (!owner || !repo || rest.length)
    throw new EngineError("invalid", "forge_repo_invalid", { value: forgeRepo });
  return { owner, repo };
}

/** The state of a pull request as GitHub returns it (`state` open|closed, `merged_at` once merged). */
function stateOf(pr: { state: string; merged_at?: string | null; merged?: boolean }): PullRequestState {
  if (pr.merged || pr.merged_at) return "merged";
  return pr.state === "open" ? "open" : "closed";
}

const request = () => ({ signal: AbortSignal.timeout(TIMEOUT_MS) });

/** The open pull request of `head` into `base`, if any (after GitHub's "already exists" 422). */
async function existing(api: Octokit, input: PullRequestInput): Promise<PullRequest | null> {
  const { owner, repo } = ownerRepo(input.forgeRepo);
  const { data } = await api.rest.pulls.list({
    owner,
    repo,
    head: `${owner}:${input.head}`,
    base: input.base,
    state: "open",
    request: request(),
  });
  const pr = data[0];
  return pr ? { number: pr.number, url: pr.html_url, state: stateOf(pr), existing: true } : null;
}

export const githubForge: ForgeClient = {
  async open(input) {
    const api = octokit(input);
    const { owner, repo } = ownerRepo(input.forgeRepo);
    try {
      const { data } = await api.rest.pulls.create({
        owner,
        repo,
        head: input.head,
        base: input.base,
        title: input.title,
        body: input.body,
        request: request(),
      });
      return { number: data.number, url: data.html_url, state: stateOf(data), existing: false };
    } catch (e) {
      if (statusOf(e) === 422 && /already exists/i.test(e instanceof Error ? e.message : "")) {
        const found = await existing(api, input);
        if (found) return found;
      }
      throw e;
    }
  },
  async state(target, number) {
    const { owner, repo } = ownerRepo(target.forgeRepo);
    const { data } = await octokit(target).rest.pulls.get({
      owner,
      repo,
      pull_number: number,
      request: request(),
    });
    return { state: stateOf(data), url: data.html_url };
  },
};
