import { Octokit } from "@octokit/rest";
import { Gitlab } from "@gitbeaker/rest";
import { EngineError } from "../errors.js";
import { forgeFailure } from "./forgeErrors.js";
import type { ForgeTarget } from "./forgeTypes.js";

// What the forge front end (issue 33) needs of a forge besides pull requests: a comment on a pull
// (merge) request or an issue, a pull request's head (its branch, and whether it comes from a
// fork), and the open pull requests of a branch (a CI run that names none). Octokit for GitHub,
// Gitbeaker for GitLab, as for pull requests.

const SILENT = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
/** How long one request to the forge may take. */
export const TIMEOUT_MS = 30_000;

/** Where a comment goes: a pull (merge) request, or an issue, by its number (GitLab's iid). */
export interface DiscussionTarget {
  kind: "pull" | "issue";
  number: number;
}

/** A pull request's head as the forge tells it. */
export interface PullRequestHead {
  branch: string;
  /** True when the head lives in another repository (a fork): never run with a secret, never pushed. */
  fork: boolean;
  url: string;
  title: string;
}

/** An Octokit client for a GitHub target (its token, its API URL, quiet). */
export function octokit(target: ForgeTarget): Octokit {
  return new Octokit({
    auth: target.token,
    baseUrl: target.forgeUrl.replace(/\/+$/, ""),
    userAgent: "codexpi",
    log: SILENT,
  });
}

/** A Gitbeaker client for a GitLab target (its API URL must end in /api/v4). */
export function gitlab(target: ForgeTarget) {
  const base = target.forgeUrl.replace(/\/+$/, "");
  if (!/\/api\/v4$/.test(base))
    throw new EngineError("invalid", "forge_url_invalid", { value: target.forgeUrl });
  return new Gitlab({ host: base.replace(/\/api\/v4$/, ""), token: target.token });
}

/** `owner/name` split, or an invalid-setting error. */
export function ownerRepo(forgeRepo: string): { owner: string; repo: string } {
  const [owner, repo, ...rest] = forgeRepo.split("/");
  if (!owner || !repo || rest.length)
    throw new EngineError("invalid", "forge_repo_invalid", { value: forgeRepo });
  return { owner, repo };
}

/** A GitLab project's `:id`: its number, or its full path. */
export const projectId = (forgeRepo: string): string | number =>
  /^\d+$/.test(forgeRepo) ? Number(forgeRepo) : forgeRepo;

async function comment(
  target: ForgeTarget,
  on: DiscussionTarget,
  body: string,
): Promise<{ url: string | null }> {
  if (target.forge === "github") {
    // A pull request's conversation is its issue's: one endpoint for both.
    const { data } = await octokit(target).rest.issues.createComment({
      ...ownerRepo(target.forgeRepo),
      issue_number: on.number,
      body,
      request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
    });
    return { url: data.html_url };
  }
  const api = gitlab(target);
  const id = projectId(target.forgeRepo);
  if (on.kind === "pull") await api.MergeRequestNotes.create(id, on.number, body);
  else await api.IssueNotes.create(id, on.number, body);
  return { url: null };
}

async function head(target: ForgeTarget, number: number): Promise<PullRequestHead> {
  if (target.forge === "github") {
    const { data } = await octokit(target).rest.pulls.get({
      ...ownerRepo(target.forgeRepo),
      pull_number: number,
      request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
    });
    const fork = (data.head.repo?.full_name ?? "") !== (data.base.repo?.full_name ?? "");
    return { branch: data.head.ref, fork, url: data.html_url, title: data.title };
  }
  const mr = await gitlab(target).MergeRequests.show(projectId(target.forgeRepo), number);
  return {
    branch: String(mr.source_branch),
    fork: mr.source_project_id !== mr.target_project_id,
    url: String(mr.web_url),
    title: String(mr.title),
  };
}

/** Posts a comment; failures are the catalogue's forge errors, never holding the token. */
export async function postForgeComment(target: ForgeTarget, on: DiscussionTarget, body: string) {
  try {
    return await comment(target, on, body);
  } catch (e) {
    throw forgeFailure(e, target);
  }
}

/** A pull (merge) request's head branch, and whether it comes from a fork. */
export async function pullRequestHead(target: ForgeTarget, number: number): Promise<PullRequestHead> {
  try {
    return await head(target, number);
  } catch (e) {
    throw forgeFailure(e, target);
  }
}

async function openOfBranch(target: ForgeTarget, branch: string): Promise<number[]> {
  if (target.forge === "github") {
    const { owner, repo } = ownerRepo(target.forgeRepo);
    // `head=owner:branch`: the repository's own branch, never a fork's of the same name.
    const { data } = await octokit(target).rest.pulls.list({
      owner,
      repo,
      head: `${owner}:${branch}`,
      state: "open",
      request: { signal: AbortSignal.timeout(TIMEOUT_MS) },
    });
    return data.map((p) => p.number);
  }
  const mrs = await gitlab(target).MergeRequests.all({
    projectId: projectId(target.forgeRepo),
    sourceBranch: branch,
    state: "opened",
  });
  return mrs.filter((mr) => mr.source_project_id === mr.target_project_id).map((mr) => mr.iid);
}

/**
 * The open pull (merge) requests whose head is `branch` of the repository itself (not a fork's):
 * what a CI run that names no pull request ran for (GitLab's branch pipelines carry no merge request).
 */
export async function openPullRequestsOf(target: ForgeTarget, branch: string): Promise<number[]> {
  try {
    return await openOfBranch(target, branch);
  } catch (e) {
    throw forgeFailure(e, target);
  }
}
