import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";
import { postGitHub, reviewComment } from "../support/forgeWebhooks.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { ADMIN_ACTOR, forgeBot, HOOK_SECRET, REPO } from "./forgeBot.js";

// Issue 33, item 2: pull requests from forks. Refused unless the project allows them; allowed, a
// linked member's request runs in a lane started from the pull request's head as the base
// repository holds it (`refs/pull/N/head`, fetched into codexpi's own `codexpi-fork/pr-N`), set up
// without the project's secrets, and never pushed (said once). Real bot, worker, Codex, git.

type Env = Awaited<ReturnType<typeof forgeBot>>;

/**
 * The demo project in branch mode on `main`, its `origin` a bare repository holding `main`, a
 * branch `same` of the repository itself, and a fork's pull request #1 only as `refs/pull/1/head`
 * (a commit no branch of the checkout or the remote has); octocat linked, channel C1.
 */
async function withForkPull(e: Env): Promise<{ remote: string; forkHead: string }> {
  isolateGit();
  const root = e.project.path;
  const remote = path.join(path.dirname(e.config.dataDir), "remote.git");
  await git(root, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(root, "app.txt"), "base\n");
  await git(root, "add", "app.txt");
  await git(root, "commit", "-q", "-m", "Base");
  await git(root, "branch", "-q", "same");
  await git(root, "checkout", "-q", "-b", "theirs");
  fs.writeFileSync(path.join(root, "fork.txt"), "from a fork\n");
  await git(root, "add", "fork.txt");
  await git(root, "commit", "-q", "-m", "A fork's change");
  const forkHead = await git(root, "rev-parse", "HEAD");
  await git(root, "checkout", "-q", "main");
  await git(path.dirname(remote), "init", "-q", "--bare", remote);
  await git(root, "remote", "add", "origin", remote);
  await git(root, "push", "-q", "origin", "main", "same", "theirs:refs/pull/1/head");
  await git(root, "branch", "-q", "-D", "theirs");
  await e.db
    .updateTable("projects")
    .set({ workspace_mode: "branch" })
    .where("id", "=", e.project.id)
    .execute();
  await e.link("github", "octocat", OWNER);
  await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
  return { remote, forkHead };
}

async function mention(e: Env, n: number, delivery: string, body: string, head: string, fork: boolean) {
  const payload = reviewComment(REPO, n, "octocat", body, {
    path: "app.txt",
    line: 1,
    hunk: "@@",
    head,
    fork,
  });
  const sent = await postGitHub(e.base, {
    secret: HOOK_SECRET,
    event: "pull_request_review_comment",
    payload,
    delivery,
  });
  expect(sent.status).toBe(202);
}

/** The agent writes `file` in its lane (committed when the turn ends), then answers. */
function writes(e: Env, file: string): void {
  e.model.enqueue(
    { kind: "shell", command: ["sh", "-c", `printf 'fixed\\n' > ${file}`] },
    { kind: "text", text: `I wrote ${file}.` },
  );
}

const answers = (e: Env, n: number) =>
  e.github.comments(REPO).filter((c) => c.number === n && c.body.includes("fake.slack.test/archives/C1/"));

describe("pull requests from forks", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-66, S-FORGE-67: refused by default; with --forks on, a linked member's request runs in a lane started from refs/pull/N/head (codexpi's own branch), set up without the project's secrets (a same-repository pull request's lane gets them), and never pushed: said once, the card's push refused, the remote untouched", async () => {
    env = await forgeBot();
    const e = env;
    const { remote, forkHead } = await withForkPull(e);
    const refs = await git(remote, "for-each-ref", "--format=%(refname) %(objectname)");
    e.github.addPull(REPO, { title: "A fork's change", head: "patch-1", fork: true });
    e.github.addPull(REPO, { title: "Same repository", head: "same" });
    // A setup that says whether it saw the secret (the admin's command wins over a committed one).
    await e.api.setup.setCommand(
      ADMIN_ACTOR,
      "demo",
      `printf '%s' "\${FORK_TEST_SECRET:-none}" > .setup-saw`,
    );
    await e.api.setup.setSecret(ADMIN_ACTOR, "demo", "FORK_TEST_SECRET", "s3cret-of-the-project");

    // Off (the default): refused on the pull request, nothing runs.
    await mention(e, 1, "f-off", "@codexpi add fix-1.txt", "patch-1", true);
    expect(await e.outcome("github", "f-off")).toBe("fork_refused");
    expect(e.github.comments(REPO).at(-1)?.body).toContain("pull requests from forks do not run here");
    expect(await e.queued()).toBe(0);

    // On: the request runs, in a lane whose base is codexpi's copy of the fork's head.
    await new ForgeThreads(e.db).setSettings(e.project.id, { forks: "on" }, Date.now());
    writes(e, "fix-1.txt");
    await mention(e, 1, "f-on", "@codexpi add fix-1.txt FORK-MARK-1", "patch-1", true);
    expect(await e.outcome("github", "f-on")).toBe("started");
    const one = await eventually(() => answers(e, 1)[0], 120_000, "the answer on the fork's pull request");
    expect(one.body).toContain("I wrote fix-1.txt.");
    expect(one.body).toContain("Not pushed: this pull request comes from a fork");
    const lane = await e.db.selectFrom("lanes").selectAll().executeTakeFirstOrThrow();
    expect(lane).toMatchObject({ base_branch: "codexpi-fork/pr-1", base_commit: forkHead });
    expect(await git(e.project.path, "rev-parse", "refs/heads/codexpi-fork/pr-1")).toBe(forkHead);
    expect(fs.readFileSync(path.join(lane.path, "fork.txt"), "utf8")).toBe("from a fork\n");
    expect(await git(lane.path, "log", "-1", "--format=%H", lane.branch)).not.toBe(forkHead);
    // Its setup ran without the project's secret.
    expect(fs.readFileSync(path.join(lane.path, ".setup-saw"), "utf8")).toBe("none");
    // Nothing reached the remote; the card offers no push, and its buttons (a stale card's) are refused.
    expect((await e.api.lanes.card(lane.conversation_id))?.publishing).toBeNull();
    expect(await git(remote, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);
    const member = { userId: OWNER, isAdmin: false };
    await expect(e.api.lanes.push(member, lane.conversation_id)).rejects.toMatchObject({
      reason: "lane_from_fork",
    });
    await expect(
      e.api.lanes.openPullRequest(member, lane.conversation_id, { threadUrl: null, requester: OWNER }),
    ).rejects.toMatchObject({ reason: "lane_from_fork" });
    expect(await git(remote, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);

    // A second turn: still not pushed, and not said again.
    writes(e, "fix-2.txt");
    await mention(e, 1, "f-again", "@codexpi add fix-2.txt FORK-MARK-2", "patch-1", true);
    expect(await e.outcome("github", "f-again")).toBe("continued");
    const two = await eventually(() => answers(e, 1)[1], 120_000, "the second answer");
    expect(two.body).toContain("I wrote fix-2.txt.");
    expect(two.body).not.toContain("Not pushed");
    expect(await git(remote, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);

    // The positive control: a pull request of the repository itself gets the secret in its setup.
    e.model.enqueue({ kind: "text", text: "Looked." });
    await mention(e, 2, "f-same", "@codexpi look SAME-MARK", "same", false);
    expect(await e.outcome("github", "f-same")).toBe("started");
    await eventually(() => answers(e, 2)[0], 120_000, "the answer on the same-repository pull request");
    const same = await e.db
      .selectFrom("lanes")
      .selectAll()
      .where("base_branch", "=", "same")
      .executeTakeFirstOrThrow();
    expect(fs.readFileSync(path.join(same.path, ".setup-saw"), "utf8")).toBe("s3cret-of-the-project");
    expect((await e.api.lanes.card(same.conversation_id))?.publishing?.push).toBe(true);
  }, 400_000);
});
