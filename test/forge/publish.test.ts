import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";
import { issueLabelled, postGitHub, reviewComment } from "../support/forgeWebhooks.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { forgeBot, HOOK_SECRET, REPO } from "./forgeBot.js";

// Issue 33, items 3 and 4, end to end (real bot, worker, Codex, fake model, fake GitHub, real git
// with a bare repository as the project's remote): a pull request's conversation pushes its
// lane's commits to the pull request's branch, fast-forward only, never to a fork's; an issue's
// conversation opens its lane as a pull request that closes the issue, linked on the issue.

type Env = Awaited<ReturnType<typeof forgeBot>>;

const HUNK = "@@ -1,1 +1,1 @@\n-base\n+renamed";

/**
 * The demo project as a branch-mode checkout on `main`, with the pull request's branch `rename`
 * (one commit ahead), both on a bare repository that is its `origin`; octocat linked, channel C1.
 */
async function onRemote(e: Env, opts: { headInCheckout?: boolean } = {}): Promise<{ remote: string }> {
  isolateGit();
  const root = e.project.path;
  const remote = path.join(path.dirname(e.config.dataDir), "remote.git");
  await git(root, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(root, "app.txt"), "base\n");
  await git(root, "add", "app.txt");
  await git(root, "commit", "-q", "-m", "Base");
  await git(root, "checkout", "-q", "-b", "rename");
  fs.writeFileSync(path.join(root, "app.txt"), "renamed\n");
  await git(root, "commit", "-q", "-am", "Rename");
  await git(root, "checkout", "-q", "main");
  await git(path.dirname(remote), "init", "-q", "--bare", remote);
  await git(root, "remote", "add", "origin", remote);
  await git(root, "push", "-q", "origin", "main", "rename");
  if (opts.headInCheckout === false) await git(root, "branch", "-q", "-D", "rename");
  await e.db
    .updateTable("projects")
    .set({ workspace_mode: "branch" })
    .where("id", "=", e.project.id)
    .execute();
  await e.link("github", "octocat", OWNER);
  await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
  return { remote };
}

/** The agent writes `file` in its lane (the worker commits it when the turn ends), then answers. */
function writes(e: Env, file: string): void {
  e.model.enqueue(
    { kind: "shell", command: ["sh", "-c", `printf 'fixed\\n' > ${file}`] },
    { kind: "text", text: `I wrote ${file}.` },
  );
}

async function mention(e: Env, delivery: string, body: string): Promise<void> {
  const payload = reviewComment(REPO, 1, "octocat", body, {
    path: "app.txt",
    line: 1,
    hunk: HUNK,
    head: "rename",
  });
  const sent = await postGitHub(e.base, {
    secret: HOOK_SECRET,
    event: "pull_request_review_comment",
    payload,
    delivery,
  });
  expect(sent.status).toBe(202);
}

/** The n-th answer codexpi posted on the forge (its answers link the Slack thread). */
const nthAnswer = (e: Env, n: number) =>
  eventually(
    () => e.github.comments(REPO).filter((c) => c.body.includes("fake.slack.test/archives/C1/"))[n - 1],
    120_000,
    `answer ${n}`,
  );

describe("a forge conversation's commits", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-14: a pull request's conversation pushes its lane's commit to the pull request's branch as a fast-forward, said on the pull request and in the thread; once that branch moved on, the next commit is refused and said, and nothing is forced", async () => {
    env = await forgeBot();
    const e = env;
    const { remote } = await onRemote(e);
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const before = await git(remote, "rev-parse", "refs/heads/rename");

    writes(e, "fix-1.txt");
    await mention(e, "d-push-1", "@codexpi add fix-1.txt PUSH-MARK-1");
    expect(await e.outcome("github", "d-push-1")).toBe("started");
    const one = await nthAnswer(e, 1);
    expect(one.number).toBe(1);
    expect(one.body).toContain("Pushed to the pull request's branch `rename`");
    const after = await git(remote, "rev-parse", "refs/heads/rename");
    expect(after).not.toBe(before);
    expect(one.body).toContain(after.slice(0, 12));
    // A fast-forward: the pull request's old head is an ancestor, and the agent's file is there.
    await git(remote, "merge-base", "--is-ancestor", before, after);
    expect(await git(remote, "show", `${after}:fix-1.txt`)).toBe("fixed");
    expect(await git(remote, "show", `${after}:app.txt`)).toBe("renamed");
    const root = e.slack.messages("C1").find((m) => !m.thread_ts && m.text.includes(`${REPO}#1`))!;
    await eventually(
      () =>
        e.slack
          .messages("C1")
          .some((m) => m.thread_ts === root.ts && m.text.includes("Pushed to the pull request's branch")),
      30_000,
      "the push said in the thread",
    );

    // Someone else pushes to the pull request's branch; the lane's next commit is no fast-forward.
    const other = path.join(path.dirname(e.config.dataDir), "other");
    await git(path.dirname(remote), "clone", "-q", "-b", "rename", remote, other);
    fs.writeFileSync(path.join(other, "theirs.txt"), "theirs\n");
    await git(other, "add", "theirs.txt");
    await git(other, "commit", "-q", "-m", "Theirs");
    await git(other, "push", "-q", "origin", "rename");
    const theirs = await git(remote, "rev-parse", "refs/heads/rename");

    writes(e, "fix-2.txt");
    await mention(e, "d-push-2", "@codexpi add fix-2.txt PUSH-MARK-2");
    expect(await e.outcome("github", "d-push-2")).toBe("continued");
    const two = await nthAnswer(e, 2);
    expect(two.body).toContain("Not pushed to the pull request's branch");
    expect(two.body).toContain("not a fast-forward");
    expect(await git(remote, "rev-parse", "refs/heads/rename")).toBe(theirs); // nothing forced
    await eventually(
      () =>
        e.slack
          .messages("C1")
          .some((m) => m.thread_ts === root.ts && m.text.includes("Not pushed to the pull request's branch")),
      30_000,
      "the refusal said in the thread",
    );
  }, 300_000);

  it("S-FORGE-17: a pull request's branch the project's checkout lacks is fetched from the remote first (codexpi's own repository), the lane starts from it, and its commit is pushed back as a fast-forward", async () => {
    env = await forgeBot();
    const e = env;
    const { remote } = await onRemote(e, { headInCheckout: false });
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const head = await git(remote, "rev-parse", "refs/heads/rename");
    expect(await git(e.project.path, "branch", "--list", "rename")).toBe("");
    writes(e, "fix-1.txt");
    await mention(e, "d-fetch", "@codexpi add fix-1.txt FETCH-MARK");
    expect(await e.outcome("github", "d-fetch")).toBe("started");
    const one = await nthAnswer(e, 1);
    expect(one.body).toContain("Pushed to the pull request's branch `rename`");
    expect(await git(e.project.path, "rev-parse", "refs/heads/rename")).toBe(head);
    const lane = await e.db.selectFrom("lanes").selectAll().executeTakeFirstOrThrow();
    expect(lane).toMatchObject({ base_branch: "rename", base_commit: head });
    const after = await git(remote, "rev-parse", "refs/heads/rename");
    await git(remote, "merge-base", "--is-ancestor", head, after);
    expect(await git(remote, "show", `${after}:fix-1.txt`)).toBe("fixed");
    // The project's checkout stayed on its branch; nothing was left under the data directory.
    expect(await git(e.project.path, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(fs.readdirSync(path.join(e.config.dataDir, "fetch"))).toEqual([]);
  }, 300_000);

  it("S-FORGE-15: a pull request whose head the forge says lives in a fork gets no push, whatever the delivery said (S-FORGE-14 is the same-repository control)", async () => {
    env = await forgeBot();
    const e = env;
    const { remote } = await onRemote(e);
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename", fork: true });
    const before = await git(remote, "rev-parse", "refs/heads/rename");
    writes(e, "fix-1.txt");
    // The delivery's own payload says the head is the same repository: it runs, and is asked again.
    await mention(e, "d-fork", "@codexpi add fix-1.txt FORK-MARK");
    expect(await e.outcome("github", "d-fork")).toBe("started");
    const one = await nthAnswer(e, 1);
    expect(one.body).toContain("I wrote fix-1.txt.");
    expect(one.body).not.toContain("Pushed");
    expect(await git(remote, "rev-parse", "refs/heads/rename")).toBe(before);
    expect(await git(remote, "for-each-ref", "--format=%(refname)")).toBe(
      "refs/heads/main\nrefs/heads/rename",
    );
    // The lane did commit: there was something a push would have sent.
    const lane = await e.db.selectFrom("lanes").selectAll().executeTakeFirstOrThrow();
    expect(lane.base_branch).toBe("rename");
    expect(await git(lane.path, "log", "-1", "--format=%H", lane.branch)).not.toBe(lane.base_commit);
  }, 300_000);

  it("S-FORGE-16: a labelled issue's conversation whose agent commits opens its lane as a pull request whose body closes the issue, linked on the issue and in the thread", async () => {
    env = await forgeBot();
    const e = env;
    const { remote } = await onRemote(e);
    writes(e, "fix-7.txt");
    const sent = await postGitHub(e.base, {
      secret: HOOK_SECRET,
      event: "issues",
      payload: issueLabelled(REPO, 7, "octocat", "codexpi", "Add fix-7.txt ISSUE-MARK-7"),
      delivery: "i-pr",
    });
    expect(sent.status).toBe(202);
    expect(await e.outcome("github", "i-pr")).toBe("started");
    const answer = await nthAnswer(e, 1);
    expect(answer.number).toBe(7);
    const pulls = e.github.pulls(REPO);
    expect(pulls).toHaveLength(1);
    const pr = pulls[0]!;
    expect(pr.body).toContain("Closes #7");
    expect(pr.base).toBe("main");
    expect(answer.body).toContain(`Opened ${pr.html_url}, which closes #7`);
    // The pull request's branch is on the remote, with the agent's file.
    expect(await git(remote, "show", `refs/heads/${pr.head}:fix-7.txt`)).toBe("fixed");
    const root = e.slack.messages("C1").find((m) => !m.thread_ts && m.text.includes(`${REPO}#7`))!;
    await eventually(
      () => e.slack.messages("C1").some((m) => m.thread_ts === root.ts && m.text.includes(pr.html_url)),
      30_000,
      "the pull request linked in the thread",
    );
  }, 300_000);
});
