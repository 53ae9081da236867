import type { Answer, ForgeRequest } from "./fakeForge.js";

// GitHub Actions as the fake GitHub serves it (docs.github.com, "Workflow runs" and "Workflow
// jobs"): `GET /repos/{owner}/{repo}/actions/runs?check_suite_id=` (`{ total_count,
// workflow_runs: [{ id, check_suite_id, head_sha, … }] }`); `GET
// /repos/{owner}/{repo}/actions/runs/{run_id}/jobs` (`{ total_count, jobs: [{ id, run_id, name,
// status, conclusion, html_url }] }`); `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs`, a 302
// whose `Location` is a short-lived plain-text download (served here under `/_blobs/`, without
// the token, as GitHub's signed URLs are).

/** A job of a workflow run, with its whole log. */
export interface FakeJob {
  name: string;
  conclusion: "success" | "failure" | "cancelled" | "skipped";
  log: string;
}

interface Run {
  id: number;
  repo: string;
  check_suite_id: number;
  head_sha: string;
  jobs: Array<FakeJob & { id: number }>;
}

/** The runs the fake GitHub holds, and the routes serving them. */
export class FakeActions {
  private readonly runs: Run[] = [];
  /** The server's base (`http://127.0.0.1:port`), known once it listens. */
  base = "";

  /** Adds a completed workflow run of `repo` on `headSha`; answers its id and its check suite's. */
  add(repo: string, headSha: string, jobs: FakeJob[]): { runId: number; checkSuiteId: number } {
    const n = this.runs.length + 1;
    const run: Run = {
      id: 7000 + n,
      repo,
      check_suite_id: 8000 + n,
      head_sha: headSha,
      jobs: jobs.map((j, i) => ({ ...j, id: 90_000 + n * 100 + i })),
    };
    this.runs.push(run);
    return { runId: run.id, checkSuiteId: run.check_suite_id };
  }

  /** A plain-text log download (no token: GitHub's are signed URLs), or null for another path. */
  blob(path: string): Answer | null {
    const m = /^\/_blobs\/job-(\d+)\.txt$/.exec(path);
    if (!m) return null;
    const job = this.runs.flatMap((r) => r.jobs).find((j) => j.id === Number(m[1]));
    return job ? { status: 200, body: null, text: job.log } : { status: 404, body: { message: "Not Found" } };
  }

  /** The answer to an Actions request of `repo` (`rest`: the path after `/repos/{o}/{r}`), or null. */
  route(req: Omit<ForgeRequest, "status">, repo: string, rest: string, q: URLSearchParams): Answer | null {
    if (req.method !== "GET" || !rest.startsWith("/actions/")) return null;
    const mine = this.runs.filter((r) => r.repo === repo);
    if (rest === "/actions/runs") {
      const suite = q.get("check_suite_id");
      const found = mine.filter((r) => !suite || String(r.check_suite_id) === suite);
      return {
        status: 200,
        body: {
          total_count: found.length,
          workflow_runs: found.map((r) => ({
            id: r.id,
            check_suite_id: r.check_suite_id,
            head_sha: r.head_sha,
          })),
        },
      };
    }
    const jobs = /^\/actions\/runs\/(\d+)\/jobs$/.exec(rest);
    if (jobs) {
      const run = mine.find((r) => r.id === Number(jobs[1]));
      if (!run) return { status: 404, body: { message: "Not Found" } };
      return {
        status: 200,
        body: {
          total_count: run.jobs.length,
          jobs: run.jobs.map((j) => ({
            id: j.id,
            run_id: run.id,
            name: j.name,
            status: "completed",
            conclusion: j.conclusion,
            head_sha: run.head_sha,
            html_url: `https://github.example/${repo}/actions/runs/${run.id}/job/${j.id}`,
            steps: [],
          })),
        },
      };
    }
    const logs = /^\/actions\/jobs\/(\d+)\/logs$/.exec(rest);
    const job = logs ? mine.flatMap((r) => r.jobs).find((j) => j.id === Number(logs[1])) : undefined;
    if (!job) return { status: 404, body: { message: "Not Found" } };
    return {
      status: 302,
      body: null,
      text: "",
      headers: { location: `${this.base}/_blobs/job-${job.id}.txt` },
    };
  }
}
