import { afterEach, describe, expect, it } from "vitest";
import { ForgeLinks } from "../../src/forge/store/links.js";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { startFakeGitLab } from "../support/fakeGitLab.js";
import { mrNote, postGitHub, postGitLab, prComment, reviewComment } from "../support/forgeWebhooks.js";
import { eventually, OTHER, OWNER } from "../support/slackBot.js";
import { ADMIN_ACTOR, forgeBot, HOOK_SECRET, REPO } from "./forgeBot.js";

// Issue 33, item 2 (who is asking) and the refusals of item 3: each delivery that must not run
// says why on the pull request, and each has a positive control.

describe("who is asking from the forge", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  const comment = (n: number, login: string, body: string, delivery: string, userId?: number) =>
    postGitHub(env!.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload: prComment(REPO, n, login, body, userId),
      delivery,
    });

  it("S-FORGE-06: /codex forge link gives a one-time code; posted on the forge by an account, it links that account to the member (said on the forge); the code works once, and an unproven account stays unlinked", async () => {
    env = await forgeBot();
    const e = env;
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const asked = await e.command("forge link github", OWNER);
    const text = (await e.response(asked.responseId)).text ?? "";
    const code = /codexpi-link-[a-z0-9]{12}/.exec(text)?.[0];
    expect(code, text).toBeTruthy();

    await comment(1, "octocat", `linking: ${code}`, "d-code", 583231);
    expect(await e.outcome("github", "d-code")).toBe("linked");
    expect(e.github.comments(REPO).at(-1)?.body).toContain("@octocat");
    const links = new ForgeLinks(e.db);
    expect(await links.memberOf("github", "octocat", "583231")).toBe(OWNER);
    // The same login from another account (a login given up and taken) is not the member.
    expect(await links.memberOf("github", "octocat", "999")).toBeNull();

    await comment(1, "mallory", `mine now: ${code}`, "d-reuse", 7);
    expect(await e.outcome("github", "d-reuse")).toBe("link_code_unknown");
    expect(await links.memberOf("github", "mallory", "7")).toBeNull();
    // The linked account's mention passes the link check (no channel is set yet: it stops there).
    await comment(1, "octocat", "@codexpi hello", "d-linked", 583231);
    expect(await e.outcome("github", "d-linked")).toBe("no_channel");
    await comment(1, "mallory", "@codexpi hello", "d-mallory", 7);
    expect(await e.outcome("github", "d-mallory")).toBe("not_linked");
    expect(await e.queued()).toBe(0);
  }, 90_000);

  it("S-FORGE-07: a pull request from a fork runs nothing and is told so once; the same mention on a pull request of the repository runs", async () => {
    env = await forgeBot();
    const e = env;
    await e.link("github", "octocat", OWNER);
    await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
    e.github.addPull(REPO, { title: "From a fork", head: "patch-1", fork: true });
    e.github.addPull(REPO, { title: "From the repository", head: "rename" });
    // The fork is known from the forge's API (a conversation comment), or from the payload (a review comment).
    await comment(1, "octocat", "@codexpi fix it", "d-fork-1");
    expect(await e.outcome("github", "d-fork-1")).toBe("fork_refused");
    const review = reviewComment(REPO, 1, "octocat", "@codexpi and here", {
      path: "a.ts",
      line: 1,
      hunk: "@@ -1 +1 @@",
      head: "patch-1",
      fork: true,
    });
    await postGitHub(e.base, {
      secret: HOOK_SECRET,
      event: "pull_request_review_comment",
      payload: review,
      delivery: "d-fork-2",
    });
    expect(await e.outcome("github", "d-fork-2")).toBe("fork_refused");
    expect(e.github.comments(REPO).filter((c) => c.number === 1)).toHaveLength(1);
    expect(e.github.comments(REPO)[0]!.body).toContain("forks");
    expect(await e.queued()).toBe(0);
    // Positive control: the same person, the same words, on the repository's own pull request.
    await comment(2, "octocat", "@codexpi fix it", "d-own");
    expect(await e.outcome("github", "d-own")).toBe("started");
    expect(await e.queued()).toBe(1);
  }, 120_000);

  it("S-FORGE-08: a linked member without the right to prompt the project is told why on the pull request; nothing runs and nothing is posted in Slack; the project's owner, linked the same way, runs", async () => {
    env = await forgeBot();
    const e = env;
    const links = new ForgeLinks(e.db);
    await links.link(
      { forge: "github", login: "outsider", account_id: null, user_id: OTHER },
      "test",
      Date.now(),
    );
    await links.link(
      { forge: "github", login: "octocat", account_id: null, user_id: OWNER },
      "test",
      Date.now(),
    );
    await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    await comment(1, "outsider", "@codexpi delete everything", "d-outsider");
    expect(await e.outcome("github", "d-outsider")).toMatch(/^refused:/);
    const told = await eventually(
      () => e.github.comments(REPO).find((c) => c.body.includes("@outsider")),
      10_000,
      "the refusal",
    );
    expect(told.body).toContain("nothing ran");
    expect(e.slack.messages("C1").filter((m) => m.text.includes(REPO))).toHaveLength(0);
    expect(await e.queued()).toBe(0);
    await comment(1, "octocat", "@codexpi rename it", "d-owner");
    expect(await e.outcome("github", "d-owner")).toBe("started");
    expect(await e.queued()).toBe(1);
  }, 120_000);
});

describe("from GitLab", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  let gitlab: Awaited<ReturnType<typeof startFakeGitLab>> | undefined;
  afterEach(async () => {
    await gitlab?.close();
    await env?.close();
    env = gitlab = undefined;
  });

  it("S-FORGE-09: on GitLab, an unlinked author's mention in a merge request note is answered once by a note on the merge request; a linked member's mention runs and its answer comes back as a note with the Slack link", async () => {
    env = await forgeBot();
    const e = env;
    gitlab = await startFakeGitLab({ token: "glpat-forge-test-0001", projects: ["group/app"] });
    const dir = e.siblingDir("lab");
    await e.api.projects.add(ADMIN_ACTOR, {
      name: "lab",
      path: dir,
      ownerId: OWNER,
      workspaceMode: "direct",
    });
    await e.api.projects.setForge(ADMIN_ACTOR, "lab", {
      forge: "gitlab",
      forgeUrl: gitlab.apiUrl,
      forgeRepo: "group/app",
    });
    await e.api.projects.setForgeToken(ADMIN_ACTOR, "lab", "glpat-forge-test-0001");
    await e.api.forge.setWebhookSecret(ADMIN_ACTOR, "lab", "gitlab-secret-for-tests-1");
    const lab = await e.api.projects.forActor(ADMIN_ACTOR, "lab");
    await new ForgeThreads(e.db).setSettings(lab.id, { channel_id: "C2" }, Date.now());
    const note = (username: string, text: string, uuid: string) =>
      postGitLab(e.base, {
        token: "gitlab-secret-for-tests-1",
        event: "Note Hook",
        payload: mrNote("group/app", 4, username, text),
        uuid,
      });

    await note("stranger", "@codexpi do it", "g-1");
    expect(await e.outcome("gitlab", "g-1")).toBe("not_linked");
    await note("stranger", "@codexpi please", "g-2");
    expect(await e.outcome("gitlab", "g-2")).toBe("not_linked");
    expect(gitlab.notes("group/app")).toHaveLength(1);
    expect(gitlab.notes("group/app")[0]).toMatchObject({ iid: 4 });
    expect(gitlab.notes("group/app")[0]!.body).toContain("/codex forge link gitlab");

    await e.link("gitlab", "tanuki", OWNER);
    await note("tanuki", "@codexpi do it", "g-3");
    expect(await e.outcome("gitlab", "g-3")).toBe("started");
    const answer = await eventually(
      () => gitlab!.notes("group/app").find((n) => n.body.includes("fake.slack.test/archives/C2/")),
      120_000,
      "the answer note",
    );
    expect(answer.iid).toBe(4);
    expect(e.slack.messages("C2").some((m) => m.text.includes("group/app#4"))).toBe(true);
  }, 180_000);
});
