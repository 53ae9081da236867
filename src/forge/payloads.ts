import { z } from "zod";
import type { ForgeComment } from "./comment.js";
import { githubReviewOf } from "./reviewPayload.js";
import type { ForgeName } from "./store/schema.js";

// What a delivery says, read from the forges' documented payloads into one shape. Only comments
// (a pull request's conversation, a review comment on a line, GitLab's notes) are read so far;
// anything else is journaled and answered "ignored".

const user = z.object({ login: z.string(), id: z.union([z.number(), z.string()]) });
const repository = z.object({ full_name: z.string() });
const ghRepoRef = z.object({ full_name: z.string() }).nullable().optional();

const githubIssueComment = z.object({
  action: z.literal("created"),
  issue: z.object({
    number: z.number(),
    title: z.string(),
    html_url: z.string(),
    pull_request: z.unknown().optional(),
  }),
  comment: z.object({ body: z.string(), html_url: z.string(), user }),
  repository,
});

const githubReviewComment = z.object({
  action: z.literal("created"),
  comment: z.object({
    body: z.string(),
    html_url: z.string(),
    user,
    path: z.string(),
    line: z.number().nullable().optional(),
    original_line: z.number().nullable().optional(),
    diff_hunk: z.string().nullable().optional(),
  }),
  pull_request: z.object({
    number: z.number(),
    title: z.string(),
    html_url: z.string(),
    head: z.object({ ref: z.string(), repo: ghRepoRef }),
    base: z.object({ repo: ghRepoRef }),
  }),
  repository,
});

function githubComment(event: string, payload: unknown): ForgeComment | null {
  if (event === "issue_comment") {
    const p = githubIssueComment.safeParse(payload);
    if (!p.success) return null;
    const { issue, comment } = p.data;
    return {
      forge: "github",
      repo: p.data.repository.full_name,
      number: issue.number,
      onPull: issue.pull_request !== undefined && issue.pull_request !== null,
      title: issue.title,
      url: issue.html_url,
      author: { login: comment.user.login, id: String(comment.user.id) },
      body: comment.body,
      commentUrl: comment.html_url,
      review: null,
      head: null,
    };
  }
  if (event === "pull_request_review_comment") {
    const p = githubReviewComment.safeParse(payload);
    if (!p.success) return null;
    const { pull_request: pr, comment } = p.data;
    return {
      forge: "github",
      repo: p.data.repository.full_name,
      number: pr.number,
      onPull: true,
      title: pr.title,
      url: pr.html_url,
      author: { login: comment.user.login, id: String(comment.user.id) },
      body: comment.body,
      commentUrl: comment.html_url,
      review: {
        path: comment.path,
        line: comment.line ?? comment.original_line ?? null,
        hunk: comment.diff_hunk ?? null,
      },
      head: {
        branch: pr.head.ref,
        fork: (pr.head.repo?.full_name ?? "") !== (pr.base.repo?.full_name ?? ""),
      },
    };
  }
  return null;
}

const gitlabNote = z.object({
  object_kind: z.literal("note"),
  user: z.object({ username: z.string(), id: z.union([z.number(), z.string()]) }),
  project: z.object({ path_with_namespace: z.string() }),
  object_attributes: z.object({
    note: z.string(),
    noteable_type: z.string(),
    url: z.string(),
    position: z
      .object({ new_path: z.string().nullable().optional(), new_line: z.number().nullable().optional() })
      .nullable()
      .optional(),
  }),
  merge_request: z
    .object({
      iid: z.number(),
      title: z.string(),
      url: z.string(),
      source_branch: z.string(),
      source_project_id: z.number(),
      target_project_id: z.number(),
    })
    .optional(),
  issue: z.object({ iid: z.number(), title: z.string(), url: z.string() }).optional(),
});

function gitlabComment(payload: unknown): ForgeComment | null {
  const p = gitlabNote.safeParse(payload);
  if (!p.success) return null;
  const { object_attributes: note, merge_request: mr, issue } = p.data;
  const target =
    note.noteable_type === "MergeRequest" ? mr : note.noteable_type === "Issue" ? issue : undefined;
  if (!target) return null;
  const position = note.position?.new_path
    ? { path: note.position.new_path, line: note.position.new_line ?? null, hunk: null }
    : null;
  return {
    forge: "gitlab",
    repo: p.data.project.path_with_namespace,
    number: target.iid,
    onPull: mr !== undefined && target === mr,
    title: target.title,
    url: target.url,
    author: { login: p.data.user.username, id: String(p.data.user.id) },
    body: note.note,
    commentUrl: note.url,
    review: position,
    head:
      mr && target === mr
        ? { branch: mr.source_branch, fork: mr.source_project_id !== mr.target_project_id }
        : null,
  };
}

/** The comment a delivery carries, or null for anything else (other events, other actions). */
export function commentOf(forge: ForgeName, event: string, payload: unknown): ForgeComment | null {
  if (forge === "github" && event === "pull_request_review") return githubReviewOf(payload);
  return forge === "github"
    ? githubComment(event, payload)
    : event === "Note Hook"
      ? gitlabComment(payload)
      : null;
}

/** The repository a delivery is about, before its signature is known good (only to find its secret). */
export function repositoryOf(forge: ForgeName, payload: unknown): string | null {
  const p = payload as {
    repository?: { full_name?: unknown };
    project?: { path_with_namespace?: unknown };
  } | null;
  const name = forge === "github" ? p?.repository?.full_name : p?.project?.path_with_namespace;
  return typeof name === "string" && name.length > 0 && name.length < 300 ? name : null;
}
