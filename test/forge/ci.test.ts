import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { checkSuiteCompleted, pipelineHook, workflowRunCompleted } from "../support/forgeCiWebhooks.js";
import { inputText } from "../support/fakeModel.js";
import { mrNote, postGitHub, postGitLab, prComment } from "../support/forgeWebhooks.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { ADMIN_ACTOR, forgeBot, GITLAB_HOOK_SECRET, HOOK_SECRET, REPO } from "./forgeBot.js";

// Issue 33, item 5, end to end: a failed check on a pull request whose conversation codexpi has
// (started by a mention) gets a follow-up turn through the real bot, worker and Codex against the
// fake model, its job's name and log tail fetched from the fake GitHub's Actions API.

type Env = Awaited<ReturnType<typeof forgeBot>>;

/** A log whose head must be cut and whose tail must reach the agent. */
const LOG = `CI-HEAD-MARK ${"x".repeat(6_000)}\nFAIL test/widget.test.ts > renames\nCI-TAIL-MARK expected newName`;

/** The bot with `octocat` linked to OWNER, the forge channel C1, and a conversation on pull request 1. */
async function withConversation(settings: Parameters<ForgeThreads["setSettings"]>[1]) {
  const e = await forgeBot();
  await e.link("github", "octocat", OWNER);
  await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1", ...settings }, Date.now());
  e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
  e.github.addPull(REPO, { title: "Someone else's work", head: "other" });
  await postGitHub(e.base, {
    secret: HOOK_SECRET,
    event: "issue_comment",
    payload: prComment(REPO, 1, "octocat", "@codexpi rename the widget"),
    delivery: "d-mention",
  });
  expect(await e.outcome("github", "d-mention")).toBe("started");
  await eventually(() => e.github.comments(REPO).length === 1, 120_000, "the first answer");
  return e;
}

/** Posts a failed `workflow_run` for a new run of `sha` on `pulls`; answers its outcome. */
async function failed(e: Env, delivery: string, sha: string, pulls: number[]) {
  const run = e.github.actions.add(REPO, sha, [
    { name: "lint", conclusion: "success", log: "all good" },
    { name: "test (ubuntu)", conclusion: "failure", log: LOG },
  ]);
  const sent = await postGitHub(e.base, {
    secret: HOOK_SECRET,
    event: "workflow_run",
    payload: workflowRunCompleted(REPO, { id: run.runId, checkSuiteId: run.checkSuiteId, sha, pulls }),
    delivery,
  });
  expect(sent.status).toBe(202);
  return { outcome: await e.outcome("github", delivery), run };
}

describe("a failed check on a pull request", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-20, S-FORGE-21, S-FORGE-22: with --fix-ci off a failed check on codexpi's pull request runs nothing; with it on, the same conversation gets a follow-up as its member whose model request carries the failing job's name and its log's tail quoted as the CI's words (the cut said), and its answer goes back on the pull request; a pull request codexpi never touched runs nothing", async () => {
    env = await withConversation({ triggers: "comments,issues,ci" });
    const e = env;
    const sha1 = "a".repeat(40);
    expect((await failed(e, "ci-off", sha1, [1])).outcome).toBe("fix_ci_off");
    expect(await e.queued()).toBe(1);

    await new ForgeThreads(e.db).setSettings(e.project.id, { fix_ci: "on" }, Date.now());
    expect((await failed(e, "ci-untouched", "c".repeat(40), [2])).outcome).toBe("not_ours");
    expect(await e.queued()).toBe(1);

    expect((await failed(e, "ci-on", sha1, [1])).outcome).toBe("ci_follow_up");
    const items = await e.db
      .selectFrom("prompt_queue")
      .select(["conversation_id", "requested_by"])
      .orderBy("created_at")
      .execute();
    expect(items).toHaveLength(2);
    expect(items[1]!.conversation_id).toBe(items[0]!.conversation_id);
    expect(items[1]!.requested_by).toBe(OWNER);
    const request = await eventually(
      () => e.model.requests.find((r) => inputText(r).includes("CI-TAIL-MARK")),
      60_000,
      "the follow-up's model request",
    );
    const asked = inputText(request);
    expect(asked).toContain("test (ubuntu)");
    expect(asked).toContain('CI job "test (ubuntu)" (github)');
    expect(asked).toContain("FAIL test/widget.test.ts > renames");
    expect(asked).toContain("characters cut");
    expect(asked).not.toContain("CI-HEAD-MARK");
    expect(asked).toContain("try 1 of 2");
    // The job's log was fetched through the documented endpoints.
    const paths = e.github.received.map((r) => r.url.split("?")[0]);
    expect(paths).toContain(`/api/v3/repos/${REPO}/actions/runs/7003/jobs`);
    expect(paths.some((p) => /\/api\/v3\/repos\/acme\/widgets\/actions\/jobs\/\d+\/logs$/.test(p!))).toBe(
      true,
    );
    await eventually(() => e.github.comments(REPO).length === 2, 120_000, "the follow-up's answer");
    expect(e.github.comments(REPO).every((c) => c.number === 1)).toBe(true);
  }, 300_000);

  it("S-FORGE-23, S-FORGE-24: one try per failing commit (check_suite and workflow_run of the same run make one); after --fix-ci-tries tries a new failure makes no turn, and one message on the pull request and in the Slack thread says codexpi gives up, once", async () => {
    env = await withConversation({ triggers: "comments,issues,ci", fix_ci: "on", fix_ci_tries: 1 });
    const e = env;
    const first = await failed(e, "ci-1", "1".repeat(40), [1]);
    expect(first.outcome).toBe("ci_follow_up");
    const suite = await postGitHub(e.base, {
      secret: HOOK_SECRET,
      event: "check_suite",
      payload: checkSuiteCompleted(REPO, { id: first.run.checkSuiteId, sha: "1".repeat(40), pulls: [1] }),
      delivery: "ci-1-suite",
    });
    expect(suite.status).toBe(202);
    expect(await e.outcome("github", "ci-1-suite")).toBe("ci_seen");
    expect(await e.queued()).toBe(2);
    await eventually(() => e.github.comments(REPO).length === 2, 120_000, "the try's answer");

    expect((await failed(e, "ci-2", "2".repeat(40), [1])).outcome).toBe("ci_gave_up");
    expect((await failed(e, "ci-3", "3".repeat(40), [1])).outcome).toBe("ci_given_up");
    expect(await e.queued()).toBe(2);
    const gaveUp = e.github.comments(REPO).filter((c) => c.body.includes("gives up"));
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]!.number).toBe(1);
    const root = e.slack.messages("C1").find((m) => !m.thread_ts && m.text.includes(`${REPO}#1`))!;
    const inThread = e.slack
      .messages("C1")
      .filter((m) => m.thread_ts === root.ts && m.text.includes("gives up"));
    expect(inThread).toHaveLength(1);
  }, 300_000);
});

describe("a failed check whose member may not run", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-27: when the member who started the conversation is over their budget, a failed check runs nothing and the pull request is told why, once; with the budget cleared the next failure runs (the control)", async () => {
    env = await withConversation({ triggers: "comments,ci", fix_ci: "on" });
    const e = env;
    const person = { scope: "user" as const, name: OWNER };
    await e.api.usage.setBudget(ADMIN_ACTOR, person, { daily: 1 });
    expect((await failed(e, "ci-broke", "4".repeat(40), [1])).outcome).toMatch(/^refused:/);
    expect((await failed(e, "ci-broke-again", "4".repeat(40), [1])).outcome).toMatch(/^refused:/);
    expect(await e.queued()).toBe(1);
    const told = e.github.comments(REPO).filter((c) => c.body.includes("no fix ran"));
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain("test (ubuntu)");
    expect(told[0]!.body).toContain("budget");
    await e.api.usage.clearBudget(ADMIN_ACTOR, person);
    expect((await failed(e, "ci-cleared", "5".repeat(40), [1])).outcome).toBe("ci_follow_up");
    expect(await e.queued()).toBe(2);
  }, 300_000);
});

describe("a failed pipeline on a merge request", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-26: on GitLab a failed Pipeline Hook of a merge request whose conversation codexpi has gets a follow-up carrying the failed job's name and its trace's tail (from the pipeline's jobs and the job's trace); a pipeline of another merge request, or one that passed, runs nothing", async () => {
    env = await forgeBot();
    const e = env;
    const { gitlab, projectId } = await e.labOnGitLab();
    await new ForgeThreads(e.db).setSettings(
      projectId,
      { channel_id: "C2", triggers: "comments,ci", fix_ci: "on" },
      Date.now(),
    );
    await e.link("gitlab", "tanuki", OWNER);
    const hook = (event: string, payload: object, uuid: string) =>
      postGitLab(e.base, { token: GITLAB_HOOK_SECRET, event, payload, uuid });
    await hook("Note Hook", mrNote("group/app", 4, "tanuki", "@codexpi do it"), "g-mention");
    expect(await e.outcome("gitlab", "g-mention")).toBe("started");
    await eventually(() => gitlab.notes("group/app").length === 1, 120_000, "the first answer");

    const pipeline = (iid: number | null, uuid: string, status = "failed") => {
      const id = gitlab.pipelines.add("group/app", [
        { name: "rubocop", conclusion: "success", log: "ok" },
        { name: "rspec 1/2", conclusion: "failure", log: LOG },
      ]);
      return hook(
        "Pipeline Hook",
        pipelineHook("group/app", { id, sha: `${uuid}`.padEnd(40, "0"), iid, status }),
        uuid,
      );
    };
    await pipeline(4, "g-passed", "success");
    expect(await e.outcome("gitlab", "g-passed")).toBe("ignored");
    await pipeline(5, "g-other");
    expect(await e.outcome("gitlab", "g-other")).toBe("not_ours");
    expect(await e.queued()).toBe(1);
    await pipeline(4, "g-failed");
    expect(await e.outcome("gitlab", "g-failed")).toBe("ci_follow_up");
    const request = await eventually(
      () => e.model.requests.find((r) => inputText(r).includes("CI-TAIL-MARK")),
      60_000,
      "the follow-up's model request",
    );
    const asked = inputText(request);
    expect(asked).toContain('CI job "rspec 1/2" (gitlab)');
    expect(asked).not.toContain("CI-HEAD-MARK");
    const paths = gitlab.received.map((r) => r.url.split("?")[0]!);
    expect(paths.some((p) => /\/api\/v4\/projects\/group%2Fapp\/pipelines\/\d+\/jobs$/.test(p))).toBe(true);
    expect(paths.some((p) => /\/api\/v4\/projects\/group%2Fapp\/jobs\/\d+\/trace$/.test(p))).toBe(true);
    await eventually(() => gitlab.notes("group/app").length === 2, 120_000, "the follow-up's answer");
    expect(gitlab.notes("group/app").map((n) => n.iid)).toEqual([4, 4]);
  }, 300_000);
});
