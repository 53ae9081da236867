import { createHmac, randomUUID } from "node:crypto";

// Webhook deliveries as GitHub and GitLab send them (docs.github.com "Webhook events and
// payloads", docs.gitlab.com "Webhook events"): JSON bodies, GitHub's `X-GitHub-Event`,
// `X-GitHub-Delivery` and `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`; GitLab's
// `X-Gitlab-Event`, `X-Gitlab-Event-UUID` and `X-Gitlab-Token`. Posted for real to the bot's listener.

/** The `sha256=…` signature GitHub sends for a body and a secret. */
export const githubSignature = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** POSTs a GitHub delivery; `signature` null sends none, a string sends that one instead of the right one. */
export async function postGitHub(
  base: string,
  opts: { secret: string; event: string; payload: object; delivery?: string; signature?: string | null },
) {
  const body = JSON.stringify(opts.payload);
  const signature = opts.signature === undefined ? githubSignature(opts.secret, body) : opts.signature;
  const res = await fetch(`${base}/forge/github`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": opts.event,
      "x-github-delivery": opts.delivery ?? randomUUID(),
      "user-agent": "GitHub-Hookshot/test",
      ...(signature === null ? {} : { "x-hub-signature-256": signature }),
    },
    body,
  });
  return { status: res.status, body: await res.text() };
}

/** POSTs a GitLab delivery with `token` as `X-Gitlab-Token` (null: none). */
export async function postGitLab(
  base: string,
  opts: { token: string | null; event: string; payload: object; uuid?: string },
) {
  const res = await fetch(`${base}/forge/gitlab`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-gitlab-event": opts.event,
      "x-gitlab-event-uuid": opts.uuid ?? randomUUID(),
      ...(opts.token === null ? {} : { "x-gitlab-token": opts.token }),
    },
    body: JSON.stringify(opts.payload),
  });
  return { status: res.status, body: await res.text() };
}

/** GitHub's `issue_comment` (created) on pull request `number` of `repo`, by `login`. */
export function prComment(repo: string, number: number, login: string, body: string, userId = 583231) {
  return {
    action: "created",
    issue: {
      number,
      title: "Rename the widget",
      html_url: `https://github.example/${repo}/pull/${number}`,
      pull_request: { url: `https://api.github.example/repos/${repo}/pulls/${number}` },
    },
    comment: {
      id: Math.floor(Math.random() * 1e9),
      body,
      html_url: `https://github.example/${repo}/pull/${number}#issuecomment-1`,
      user: { login, id: userId },
    },
    repository: { full_name: repo },
    sender: { login, id: userId },
  };
}

/** GitHub's `pull_request_review_comment` (created) on a line of `path`. */
export function reviewComment(
  repo: string,
  number: number,
  login: string,
  body: string,
  at: { path: string; line: number; hunk: string; head: string; fork?: boolean },
  userId = 583231,
) {
  return {
    action: "created",
    comment: {
      id: Math.floor(Math.random() * 1e9),
      body,
      path: at.path,
      line: at.line,
      diff_hunk: at.hunk,
      html_url: `https://github.example/${repo}/pull/${number}#discussion_r1`,
      user: { login, id: userId },
    },
    pull_request: {
      number,
      title: "Rename the widget",
      html_url: `https://github.example/${repo}/pull/${number}`,
      head: { ref: at.head, repo: { full_name: at.fork ? `someone-else/${repo.split("/")[1]}` : repo } },
      base: { ref: "main", repo: { full_name: repo } },
    },
    repository: { full_name: repo },
  };
}

/** GitHub's `pull_request_review` (`submitted`, or `action`) with `body` (null: a review without one). */
export function prReview(
  repo: string,
  number: number,
  login: string,
  body: string | null,
  opts: { state?: string; action?: string; head?: string; fork?: boolean; userId?: number } = {},
) {
  const userId = opts.userId ?? 583231;
  return {
    action: opts.action ?? "submitted",
    review: {
      id: Math.floor(Math.random() * 1e9),
      body,
      state: opts.state ?? "changes_requested",
      html_url: `https://github.example/${repo}/pull/${number}#pullrequestreview-1`,
      submitted_at: "2026-12-06T12:00:00Z",
      user: { login, id: userId },
    },
    pull_request: {
      number,
      title: "Rename the widget",
      html_url: `https://github.example/${repo}/pull/${number}`,
      head: {
        ref: opts.head ?? "rename",
        repo: { full_name: opts.fork ? `someone-else/${repo.split("/")[1]}` : repo },
      },
      base: { ref: "main", repo: { full_name: repo } },
    },
    repository: { full_name: repo },
    sender: { login, id: userId },
  };
}

/** GitLab's `Note Hook` on merge request `iid` of `path` (its source branch `source`). */
export function mrNote(path: string, iid: number, username: string, note: string, source = "rename") {
  return {
    object_kind: "note",
    user: { username, id: 42 },
    project: { id: 7, path_with_namespace: path },
    object_attributes: {
      note,
      noteable_type: "MergeRequest",
      url: `https://gitlab.example/${path}/-/merge_requests/${iid}#note_1`,
    },
    merge_request: {
      iid,
      title: "Rename the widget",
      url: `https://gitlab.example/${path}/-/merge_requests/${iid}`,
      source_branch: source,
      source_project_id: 7,
      target_project_id: 7,
    },
  };
}

/** GitHub's `issues` (labeled) on issue `number`, labelled `label` by `sender`. */
export function issueLabelled(repo: string, number: number, sender: string, label: string, body: string) {
  return {
    action: "labeled",
    label: { name: label },
    issue: {
      number,
      title: "The widget is misnamed",
      body,
      html_url: `https://github.example/${repo}/issues/${number}`,
      user: { login: "reporter" },
    },
    repository: { full_name: repo },
    sender: { login: sender, id: 583231 },
  };
}

/** GitHub's `issues` (assigned) on issue `number`, assigned to `assignee` by `sender`. */
export function issueAssigned(repo: string, number: number, sender: string, assignee: string, body: string) {
  const { label: _label, ...rest } = issueLabelled(repo, number, sender, "", body);
  return { ...rest, action: "assigned", assignee: { login: assignee, id: 9001 } };
}

/** GitLab's `Issue Hook` (update) of issue `iid` of `path`, given `label` by `username`. */
export function issueHookLabelled(
  path: string,
  iid: number,
  username: string,
  label: string,
  description: string,
) {
  return {
    object_kind: "issue",
    event_type: "issue",
    user: { username, id: 42, name: username },
    project: { id: 7, path_with_namespace: path },
    object_attributes: {
      iid,
      title: "The widget is misnamed",
      description,
      url: `https://gitlab.example/${path}/-/issues/${iid}`,
      action: "update",
      state: "opened",
    },
    labels: [{ id: 206, title: label }],
    changes: { labels: { previous: [], current: [{ id: 206, title: label }] } },
  };
}
