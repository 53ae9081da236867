import { z } from "zod";
import type { CiRun } from "../engine/api/forge.js";
import type { ForgeName } from "./store/schema.js";

// A failed check as the forges tell it (issue 33, item 5): GitHub's `workflow_run` and
// `check_suite` "completed" with conclusion "failure", their `pull_requests` naming the pull
// requests of the same repository whose head is the commit; GitLab's Pipeline Hook with status
// "failed" and its merge request. Read into one shape; the failing job and its log are asked of
// the forge afterwards (engine/forge/ciLogs.ts).

/** A failed CI run on some pull requests. */
export interface CiFailure {
  forge: ForgeName;
  repo: string;
  /** The pull (merge) requests it ran for (their numbers, GitLab's iid). */
  pulls: number[];
  headSha: string;
  headBranch: string | null;
  run: CiRun;
}

const pullRefs = z.array(z.object({ number: z.number() })).optional();

/** A GitHub workflow run or check suite: the same fields, under the event's own key. */
const githubRunLike = z.object({
  id: z.number(),
  head_sha: z.string(),
  head_branch: z.string().nullable().optional(),
  conclusion: z.string().nullable(),
  pull_requests: pullRefs,
});

/** A completed `workflow_run` or `check_suite` delivery: its run under the event's own key. */
const githubCompleted = z.object({
  action: z.literal("completed"),
  workflow_run: githubRunLike.optional(),
  check_suite: githubRunLike.optional(),
  repository: z.object({ full_name: z.string() }),
});

const gitlabPipeline = z.object({
  object_kind: z.literal("pipeline"),
  object_attributes: z.object({
    id: z.number(),
    ref: z.string().nullable().optional(),
    sha: z.string(),
    status: z.string(),
  }),
  merge_request: z.object({ iid: z.number() }).nullable().optional(),
  project: z.object({ path_with_namespace: z.string() }),
});

function github(event: string, payload: unknown): CiFailure | null {
  if (event !== "workflow_run" && event !== "check_suite") return null;
  const p = githubCompleted.safeParse(payload);
  const r = p.success ? p.data[event] : undefined;
  if (!p.success || r?.conclusion !== "failure") return null;
  return {
    forge: "github",
    repo: p.data.repository.full_name,
    pulls: (r.pull_requests ?? []).map((x) => x.number),
    headSha: r.head_sha,
    headBranch: r.head_branch ?? null,
    run: { kind: event, id: r.id },
  };
}

/** The failed CI run a delivery reports, or null (another event, a success, a run still going). */
export function ciFailureOf(forge: ForgeName, event: string, payload: unknown): CiFailure | null {
  if (forge === "github") return github(event, payload);
  if (event !== "Pipeline Hook") return null;
  const p = gitlabPipeline.safeParse(payload);
  if (!p.success || p.data.object_attributes.status !== "failed") return null;
  const a = p.data.object_attributes;
  return {
    forge: "gitlab",
    repo: p.data.project.path_with_namespace,
    pulls: p.data.merge_request ? [p.data.merge_request.iid] : [],
    headSha: a.sha,
    headBranch: a.ref ?? null,
    run: { kind: "pipeline", id: a.id },
  };
}
