import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { ACTIONS } from "../../src/views/ids.js";
import { git } from "../engine/orchestrations/repo.js";
import { workflowRunCompleted } from "../support/forgeCiWebhooks.js";
import { issueLabelled, postGitHub, prComment, reviewComment } from "../support/forgeWebhooks.js";
import { buttonOf, cardsOf } from "../support/laneCards.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { messageEvent } from "../support/slackRequests.js";
import { conversationsQueued, allDone, modelAsked } from "./storyWaits.js";
import { forgeBot, HOOK_SECRET, REPO, TOKEN } from "./forgeBot.js";
import { type ServedRepo, servedRepo } from "./servedRepo.js";

// Issue 33's "Done when", on GitHub, end to end: the real bot (signed HTTP), the real worker and
// Codex in the jail against the fake model, a fake GitHub (REST API, signed webhook deliveries)
// and the repository served over git smart HTTP with the project's token. A reviewer's mention
// becomes a Slack thread, an answer on the pull request and a commit on its branch; follow-ups
// from either side continue the same Codex thread; a labelled issue ends as a pull request that
// closes it, whose failing check gets one fix and then gives up; a pull request opened from the
// lane card belongs to its conversation too. GitLab's side: story.gitlab.test.ts.

type Env = Awaited<ReturnType<typeof forgeBot>>;

/** A CI log whose end the fix turn must see. */
const LOG = `FAIL test/widget.test.ts > renames\nSTORY-CI-TAIL expected newName`;

/**
 * The bot with the demo project in branch mode on the served repository, octocat linked to OWNER,
 * the forge channel C1, every trigger on and fixes of failing checks on, one try per pull request.
 */
async function story(): Promise<{ e: Env; repo: ServedRepo }> {
  const e = await forgeBot();
  const repo = await servedRepo(e.project.path, { repo: REPO, user: "x-access-token", token: TOKEN });
  await e.db
    .updateTable("projects")
    .set({ workspace_mode: "branch" })
    .where("id", "=", e.project.id)
    .execute();
  await e.link("github", "octocat", OWNER);
  await new ForgeThreads(e.db).setSettings(
    e.project.id,
    { channel_id: "C1", triggers: "comments,issues,ci", fix_ci: "on", fix_ci_tries: 1 },
    Date.now(),
  );
  return { e, repo };
}

/** The agent writes `file` in its lane (the worker commits it when the turn ends), then answers. */
function writes(e: Env, file: string): void {
  e.model.enqueue(
    { kind: "shell", command: ["sh", "-c", `printf 'fixed\\n' > ${file}`] },
    { kind: "text", text: `I wrote ${file}.` },
  );
}

/** The n-th answer codexpi posted on the forge (its answers link the Slack thread, in `channel`). */
const nthAnswer = (e: Env, n: number, channel = "C1") =>
  eventually(
    () =>
      e.github.comments(REPO).filter((c) => c.body.includes(`fake.slack.test/archives/${channel}/`))[n - 1],
    120_000,
    `answer ${n}`,
  );

async function deliver(e: Env, event: string, payload: object, delivery: string): Promise<string> {
  const sent = await postGitHub(e.base, { secret: HOOK_SECRET, event, payload, delivery });
  expect(sent.status).toBe(202);
  return e.outcome("github", delivery);
}

/**
 * A failed `workflow_run` of a new run on `sha` for pull request `number`, or (`number` a branch)
 * one of that branch that lists no pull request; answers its outcome.
 */
async function failedCheck(e: Env, delivery: string, sha: string, number: number | string) {
  const run = e.github.actions.add(REPO, sha, [
    { name: "lint", conclusion: "success", log: "all good" },
    { name: "test (ubuntu)", conclusion: "failure", log: LOG },
  ]);
  const payload = workflowRunCompleted(REPO, {
    id: run.runId,
    checkSuiteId: run.checkSuiteId,
    sha,
    ...(typeof number === "number" ? { pulls: [number] } : { pulls: [], branch: number }),
  });
  return deliver(e, "workflow_run", payload, delivery);
}

describe("the forge story on GitHub", () => {
  let env: { e: Env; repo: ServedRepo } | undefined;
  afterEach(async () => {
    await env?.repo.close();
    await env?.e.close();
    env = undefined;
  });

  it("S-FORGE-50, S-FORGE-51: a linked reviewer's @codexpi review comment makes a Slack thread, an answer on the pull request and a commit on its branch on the forge (over git smart HTTP, with the token) holding the agent's change; a follow-up from the Slack thread and one from the pull request continue the same conversation, the model seeing the earlier history, and the pull request's branch then holds both turns' changes", async () => {
    env = await story();
    const { e, repo } = env;
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const before = (await repo.head("rename"))!;

    writes(e, "review-fix.txt");
    const review = reviewComment(REPO, 1, "octocat", "@codexpi rename it here too STORY-MARK-1", {
      path: "app.txt",
      line: 1,
      hunk: "@@ -1,1 +1,1 @@\n-base\n+renamed",
      head: "rename",
    });
    expect(await deliver(e, "pull_request_review_comment", review, "s-review")).toBe("started");
    const root = await eventually(
      () => e.slack.messages("C1").find((m) => !m.thread_ts && m.text.includes(`${REPO}#1`)),
      10_000,
      "the thread's root",
    );
    expect(root.text).toContain("octocat");
    const one = await nthAnswer(e, 1);
    expect(one.number).toBe(1);
    expect(one.body).toContain("I wrote review-fix.txt.");
    expect(one.body).toContain(`p${root.ts.replace(".", "")}`);
    expect(one.body).toContain("Pushed to the pull request's branch `rename`");
    // The commit is on the pull request's branch on the forge: a fast-forward holding the change.
    const after = (await repo.head("rename"))!;
    expect(after).not.toBe(before);
    expect(one.body).toContain(after.slice(0, 12));
    await git(repo.bare, "merge-base", "--is-ancestor", before, after);
    expect(await repo.show(after, "review-fix.txt")).toBe("fixed");
    expect(await repo.show(after, "app.txt")).toBe("renamed");
    // It went over HTTP with the project's token (the branch fetched, then pushed).
    const pushes = repo.server.received.filter((r) => r.url.endsWith("/git-receive-pack"));
    expect(pushes.some((r) => r.status === 200 && r.authorization?.startsWith("Basic "))).toBe(true);

    // A reply in the Slack thread continues the conversation (its commit stays in the lane).
    writes(e, "slack-fix.txt");
    const text = "and STORY-MARK-2 from Slack";
    const m = e.slack.say({ channel: "C1", user: OWNER, text, thread_ts: root.ts });
    await e.event(messageEvent({ user: OWNER, channel: "C1", text, ts: m.ts, thread_ts: root.ts }));
    const fromSlack = await modelAsked(e, "STORY-MARK-2");
    expect(fromSlack).toContain("STORY-MARK-1");
    await eventually(
      () => e.slack.messages("C1").some((x) => x.thread_ts === root.ts && x.text.includes("slack-fix.txt")),
      60_000,
      "the Slack follow-up's answer",
    );
    await allDone(e, 2);

    // A new @codexpi on the pull request continues it too; its push carries both turns' commits.
    writes(e, "pr-fix.txt");
    const again = prComment(REPO, 1, "octocat", "@codexpi STORY-MARK-3 one more thing");
    expect(await deliver(e, "issue_comment", again, "s-again")).toBe("continued");
    const fromPull = await modelAsked(e, "STORY-MARK-3");
    expect(fromPull).toContain("STORY-MARK-1");
    expect(fromPull).toContain("STORY-MARK-2");
    const two = await nthAnswer(e, 2);
    expect(two.body).toContain("I wrote pr-fix.txt.");
    expect(two.body).toContain("Pushed to the pull request's branch `rename`");
    const last = (await repo.head("rename"))!;
    await git(repo.bare, "merge-base", "--is-ancestor", after, last);
    expect(await repo.show(last, "slack-fix.txt")).toBe("fixed");
    expect(await repo.show(last, "pr-fix.txt")).toBe("fixed");
    const conversations = await conversationsQueued(e);
    expect(conversations).toHaveLength(3);
    expect(new Set(conversations).size).toBe(1);
    expect(e.slack.messages("C1").filter((x) => !x.thread_ts && x.text.includes(`${REPO}#1`))).toHaveLength(
      1,
    );
  }, 300_000);

  it("S-FORGE-52, S-FORGE-53, S-FORGE-54: a labelled issue ends as a pull request that closes it, its branch on the forge; a failing check on that pull request gets one fix attempt in the issue's conversation, pushed to the pull request's branch; the next failure gives up, said once on the pull request and in the thread, and nothing more runs (a run naming no pull request is its branch's); a later @codexpi on that pull request continues the same conversation", async () => {
    env = await story();
    const { e, repo } = env;
    writes(e, "fix-7.txt");
    const issue = issueLabelled(REPO, 7, "octocat", "codexpi", "Add fix-7.txt STORY-ISSUE-7");
    expect(await deliver(e, "issues", issue, "s-issue")).toBe("started");
    const answer = await nthAnswer(e, 1);
    expect(answer.number).toBe(7);
    const pr = e.github.pulls(REPO)[0]!;
    expect(e.github.pulls(REPO)).toHaveLength(1);
    expect(pr.body).toContain("Closes #7");
    expect(answer.body).toContain(`Opened ${pr.html_url}, which closes #7`);
    const opened = (await repo.head(pr.head))!;
    expect(await repo.show(opened, "fix-7.txt")).toBe("fixed");
    const root = e.slack.messages("C1").find((m) => !m.thread_ts && m.text.includes(`${REPO}#7`))!;

    // Its check fails: one fix, in the issue's conversation, pushed to the pull request's branch.
    writes(e, "ci-fix.txt");
    expect(await failedCheck(e, "s-ci-1", opened, pr.number)).toBe("ci_follow_up");
    const asked = await modelAsked(e, "STORY-CI-TAIL");
    expect(asked).toContain("STORY-ISSUE-7");
    expect(asked).toContain("try 1 of 1");
    const fixed = await nthAnswer(e, 2);
    expect(fixed.number).toBe(pr.number);
    expect(fixed.body).toContain(`Pushed to the pull request's branch \`${pr.head}\``);
    const afterFix = (await repo.head(pr.head))!;
    await git(repo.bare, "merge-base", "--is-ancestor", opened, afterFix);
    expect(await repo.show(afterFix, "ci-fix.txt")).toBe("fixed");
    const conversations = await conversationsQueued(e);
    expect(conversations).toHaveLength(2);
    expect(conversations[1]).toBe(conversations[0]);

    // It still fails: codexpi gives up, once, and nothing more runs.
    expect(await failedCheck(e, "s-ci-2", afterFix, pr.number)).toBe("ci_gave_up");
    // A run listing no pull request is for its branch's, asked of GitHub: the same pull request.
    expect(await failedCheck(e, "s-ci-3", "3".repeat(40), pr.head)).toBe("ci_given_up");
    expect(await failedCheck(e, "s-ci-main", "4".repeat(40), "main")).toBe("no_pull");
    expect(await conversationsQueued(e)).toHaveLength(2);
    const gaveUp = e.github.comments(REPO).filter((c) => c.body.includes("gives up"));
    expect(gaveUp.map((c) => c.number)).toEqual([pr.number]);
    expect(
      e.slack.messages("C1").filter((m) => m.thread_ts === root.ts && m.text.includes("gives up")),
    ).toHaveLength(1);

    // A mention on that pull request continues the issue's conversation (no new thread).
    const mention = prComment(REPO, pr.number, "octocat", "@codexpi STORY-MARK-9 what is left?");
    expect(await deliver(e, "issue_comment", mention, "s-mention")).toBe("continued");
    expect(await modelAsked(e, "STORY-MARK-9")).toContain("STORY-ISSUE-7");
    await nthAnswer(e, 3);
    const all = await conversationsQueued(e);
    expect(all).toHaveLength(3);
    expect(new Set(all).size).toBe(1);
    expect(e.slack.messages("C1").filter((m) => !m.thread_ts)).toHaveLength(1);
  }, 300_000);

  it("S-FORGE-55: a pull request opened from the lane card of a conversation asked in Slack belongs to that conversation: a failing check on it gets a fix in it, pushed to the pull request's branch, and a @codexpi on it continues it; a pull request codexpi did not open still runs nothing (the control)", async () => {
    env = await story();
    const { e, repo } = env;
    e.github.addPull(REPO, { title: "Someone else's work", head: "rename" });
    writes(e, "card.txt");
    await e.command("ask demo STORY-CARD add card.txt", OWNER, "C3");
    const id = await eventually(
      async () => (await e.db.selectFrom("conversations").select("id").executeTakeFirst())?.id,
      30_000,
      "the conversation",
    );
    const card = await eventually(
      () => cardsOf(e.slack, id).find((m) => buttonOf(m, ACTIONS.lanePullRequest)),
      120_000,
      "the lane card offering a pull request",
    );
    await e.click(ACTIONS.lanePullRequest, id, card.ts, OWNER, "C3");
    const pr = await eventually(() => e.github.pulls(REPO)[1], 60_000, "the pull request");
    const opened = await eventually(() => repo.head(pr.head), 10_000, "its branch on the forge");
    expect(await repo.show(opened, "card.txt")).toBe("fixed");

    // Before anything is known of pull request 1: a failure there is nobody's.
    expect(await failedCheck(e, "s-other", (await repo.head("rename"))!, 1)).toBe("not_ours");
    writes(e, "card-ci.txt");
    expect(await failedCheck(e, "s-card-ci", opened, pr.number)).toBe("ci_follow_up");
    expect(await modelAsked(e, "STORY-CI-TAIL")).toContain("STORY-CARD");
    const fixed = await nthAnswer(e, 1, "C3");
    expect(fixed.number).toBe(pr.number);
    expect(fixed.body).toContain(`Pushed to the pull request's branch \`${pr.head}\``);
    expect(await repo.show((await repo.head(pr.head))!, "card-ci.txt")).toBe("fixed");

    // The forge channel is no longer set: a new pull request's mention is refused for that (the
    // control), this pull request's continues its conversation in its own thread.
    await new ForgeThreads(e.db).setSettings(
      e.project.id,
      { channel_id: null, triggers: "comments,issues,ci", fix_ci: "on", fix_ci_tries: 1 },
      Date.now(),
    );
    const elsewhere = prComment(REPO, 1, "octocat", "@codexpi STORY-ELSEWHERE");
    expect(await deliver(e, "issue_comment", elsewhere, "s-card-nochannel")).toBe("no_channel");
    const mention = prComment(REPO, pr.number, "octocat", "@codexpi STORY-CARD-2 and the docs?");
    expect(await deliver(e, "issue_comment", mention, "s-card-mention")).toBe("continued");
    expect(await modelAsked(e, "STORY-CARD-2")).toContain("STORY-CARD");
    await nthAnswer(e, 2, "C3");
    const all = await conversationsQueued(e);
    expect(all).toEqual([id, id, id]);
    // Nothing was posted in the forge channel: the conversation stays in its own thread.
    expect(e.slack.messages("C1")).toEqual([]);
  }, 300_000);
});
