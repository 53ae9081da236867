import { forgeFailure } from "./forgeErrors.js";
import type { ForgeTarget } from "./forgeTypes.js";
import { gitlab, octokit, ownerRepo, projectId, TIMEOUT_MS } from "./discussion.js";

// The failing job of a CI run and the end of its log (issue 33, item 5), for the follow-up turn a
// failed check starts. GitHub Actions: the run's jobs (`GET /repos/{o}/{r}/actions/runs/{id}/jobs`;
// a check suite's run found with `GET /repos/{o}/{r}/actions/runs?check_suite_id=`), then the
// failed job's log (`GET /repos/{o}/{r}/actions/jobs/{job_id}/logs`, a redirect to plain text).
// GitLab: the pipeline's jobs (`GET /projects/:id/pipelines/:pipeline_id/jobs`), then the failed
// job's trace (`GET /projects/:id/jobs/:job_id/trace`). Only the tail is kept.

/** A CI run as a delivery names it. */
export type CiRun =
  | { kind: "workflow_run"; id: number }
  | { kind: "check_suite"; id: number }
  | { kind: "pipeline"; id: number };

/** The first failed job of a run: its name, the tail of its log, and how much was cut before it. */
export interface FailedJob {
  name: string;
  /** The log's last `tail` characters. */
  log: string;
  /** How many characters of the log were left out before them. */
  cut: number;
  url: string | null;
}

function tailOf(name: string, text: string, tail: number, url: string | null): FailedJob {
  const log = text.length > tail ? text.slice(text.length - tail) : text;
  return { name, log, cut: text.length - log.length, url };
}

async function github(target: ForgeTarget, run: CiRun, tail: number): Promise<FailedJob | null> {
  const kit = octokit(target);
  const repo = ownerRepo(target.forgeRepo);
  const request = { signal: AbortSignal.timeout(TIMEOUT_MS) };
  let runId = run.id;
  if (run.kind === "check_suite") {
    const { data } = await kit.rest.actions.listWorkflowRunsForRepo({
      ...repo,
      check_suite_id: run.id,
      request,
    });
    const found = data.workflow_runs[0];
    if (!found) return null;
    runId = found.id;
  }
  const { data } = await kit.rest.actions.listJobsForWorkflowRun({
    ...repo,
    run_id: runId,
    filter: "latest",
    per_page: 100,
    request,
  });
  const job = data.jobs.find((j) => j.conclusion === "failure");
  if (!job) return null;
  const logs = await kit.rest.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: job.id, request });
  const text = typeof logs.data === "string" ? logs.data : String(logs.data ?? "");
  return tailOf(job.name, text, tail, job.html_url ?? null);
}

async function gitlabJob(target: ForgeTarget, run: CiRun, tail: number): Promise<FailedJob | null> {
  const api = gitlab(target);
  const id = projectId(target.forgeRepo);
  const jobs = await api.Jobs.all(id, { pipelineId: run.id, maxPages: 5 });
  const job = jobs.find((j) => j.status === "failed");
  if (!job) return null;
  const text = await api.Jobs.showLog(id, job.id);
  return tailOf(String(job.name), String(text ?? ""), tail, job.web_url ? String(job.web_url) : null);
}

/** The first failed job of a run and its log's last `tail` characters, or null when none failed. */
export async function failedJob(target: ForgeTarget, run: CiRun, tail: number): Promise<FailedJob | null> {
  try {
    return target.forge === "github" ? await github(target, run, tail) : await gitlabJob(target, run, tail);
  } catch (e) {
    throw forgeFailure(e, target);
  }
}
