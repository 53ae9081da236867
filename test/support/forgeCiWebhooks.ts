// CI deliveries as GitHub and GitLab send them (docs.github.com "Webhook events and payloads":
// `workflow_run` and `check_suite`, action "completed"; docs.gitlab.com "Webhook events":
// Pipeline Hook), trimmed to the fields codexpi reads and a few around them.

/** GitHub's `workflow_run` (completed) on `sha` of `branch` (default `rename`), for the pull requests `pulls` of `repo`. */
export function workflowRunCompleted(
  repo: string,
  run: {
    id: number;
    checkSuiteId: number;
    sha: string;
    pulls: number[];
    conclusion?: string;
    branch?: string;
  },
) {
  return {
    action: "completed",
    workflow_run: {
      id: run.id,
      name: "CI",
      check_suite_id: run.checkSuiteId,
      head_branch: run.branch ?? "rename",
      head_sha: run.sha,
      status: "completed",
      conclusion: run.conclusion ?? "failure",
      html_url: `https://github.example/${repo}/actions/runs/${run.id}`,
      pull_requests: run.pulls.map((number) => ({
        number,
        head: { ref: "rename", sha: run.sha },
        base: { ref: "main", sha: "0".repeat(40) },
      })),
    },
    repository: { full_name: repo },
    sender: { login: "github-actions[bot]", id: 41898282 },
  };
}

/** GitHub's `check_suite` (completed) of the same run. */
export function checkSuiteCompleted(
  repo: string,
  suite: { id: number; sha: string; pulls: number[]; conclusion?: string },
) {
  return {
    action: "completed",
    check_suite: {
      id: suite.id,
      head_branch: "rename",
      head_sha: suite.sha,
      status: "completed",
      conclusion: suite.conclusion ?? "failure",
      pull_requests: suite.pulls.map((number) => ({ number, head: { ref: "rename", sha: suite.sha } })),
      app: { slug: "github-actions" },
    },
    repository: { full_name: repo },
    sender: { login: "github-actions[bot]", id: 41898282 },
  };
}

/**
 * GitLab's Pipeline Hook for pipeline `id` on `sha` of branch `ref` (default `rename`), of merge
 * request `iid`; null: a branch pipeline (source `push`), which names no merge request.
 */
export function pipelineHook(
  path: string,
  p: { id: number; sha: string; iid: number | null; status?: string; ref?: string },
) {
  return {
    object_kind: "pipeline",
    object_attributes: {
      id: p.id,
      ref: p.ref ?? "rename",
      sha: p.sha,
      status: p.status ?? "failed",
      source: p.iid === null ? "push" : "merge_request_event",
    },
    merge_request:
      p.iid === null
        ? null
        : { id: 9000 + p.iid, iid: p.iid, source_branch: "rename", target_branch: "main" },
    user: { username: "octocat", id: 42 },
    project: { id: 100, path_with_namespace: path },
    builds: [],
  };
}
