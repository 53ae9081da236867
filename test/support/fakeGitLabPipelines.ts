import type { Answer, ForgeRequest } from "./fakeForge.js";
import type { FakeJob } from "./fakeGitHubActions.js";

// GitLab CI as the fake GitLab serves it (docs.gitlab.com, "Jobs API"): `GET
// /api/v4/projects/:id/pipelines/:pipeline_id/jobs` (an array of `{ id, name, stage, status,
// web_url, pipeline: { id } }`, status "failed" | "success" | …), and `GET
// /api/v4/projects/:id/jobs/:job_id/trace` (the job's log, plain text).

interface Pipeline {
  id: number;
  project: string;
  jobs: Array<FakeJob & { id: number }>;
}

const STATUS: Record<FakeJob["conclusion"], string> = {
  success: "success",
  failure: "failed",
  cancelled: "canceled",
  skipped: "skipped",
};

/** The pipelines the fake GitLab holds, and the routes serving them. */
export class FakePipelines {
  private readonly pipelines: Pipeline[] = [];

  /** Adds a finished pipeline of `project`; answers its id. */
  add(project: string, jobs: FakeJob[]): number {
    const n = this.pipelines.length + 1;
    const id = 600 + n;
    this.pipelines.push({ id, project, jobs: jobs.map((j, i) => ({ ...j, id: 60_000 + n * 100 + i })) });
    return id;
  }

  /** The answer to a CI request of `project` (`rest`: the raw path after `/projects/:id`), or null. */
  route(req: Omit<ForgeRequest, "status">, project: string, rest: string): Answer | null {
    if (req.method !== "GET") return null;
    const mine = this.pipelines.filter((p) => p.project === project);
    const jobs = /^\/pipelines\/(\d+)\/jobs$/.exec(rest);
    if (jobs) {
      const p = mine.find((x) => x.id === Number(jobs[1]));
      if (!p) return { status: 404, body: { message: "404 Not found" } };
      return {
        status: 200,
        body: p.jobs.map((j) => ({
          id: j.id,
          name: j.name,
          stage: "test",
          status: STATUS[j.conclusion],
          web_url: `https://gitlab.example/${project}/-/jobs/${j.id}`,
          pipeline: { id: p.id },
        })),
      };
    }
    const trace = /^\/jobs\/(\d+)\/trace$/.exec(rest);
    if (!trace) return null;
    const job = mine.flatMap((p) => p.jobs).find((j) => j.id === Number(trace[1]));
    return job
      ? { status: 200, body: null, text: job.log }
      : { status: 404, body: { message: "404 Not found" } };
  }
}
