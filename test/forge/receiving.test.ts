import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { mrNote, postGitHub, postGitLab, prComment } from "../support/forgeWebhooks.js";
import { eventually } from "../support/slackBot.js";
import { ADMIN_ACTOR, forgeBot, HOOK_SECRET, REPO, TOKEN } from "./forgeBot.js";

// Issue 33, item 1 (receiving) and the unlinked author of item 2, through the real bot's HTTP
// listener: deliveries signed as GitHub and GitLab sign them, posted for real.

describe("forge webhooks on Slack's listener", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-01: a GitHub delivery without a signature, with a wrong one, or with its body changed is refused 401 and nothing is stored; the same delivery signed with the project's secret is journaled and answered 202", async () => {
    env = await forgeBot();
    const payload = prComment(REPO, 1, "octocat", "hello");
    const other = prComment(REPO, 1, "octocat", "something else");
    const unsigned = await postGitHub(env.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload,
      signature: null,
    });
    const wrongSecret = await postGitHub(env.base, {
      secret: "not-the-secret-at-all",
      event: "issue_comment",
      payload,
    });
    const { githubSignature } = await import("../support/forgeWebhooks.js");
    const otherBody = await postGitHub(env.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload,
      signature: githubSignature(HOOK_SECRET, JSON.stringify(other)),
    });
    expect([unsigned.status, wrongSecret.status, otherBody.status]).toEqual([401, 401, 401]);
    expect(await env.deliveries.count()).toBe(0);
    // Positive control: the same payload, rightly signed.
    const good = await postGitHub(env.base, { secret: HOOK_SECRET, event: "issue_comment", payload });
    expect(good.status).toBe(202);
    expect(await env.deliveries.count()).toBe(1);
  }, 60_000);

  it("S-FORGE-02: a redelivery (same X-GitHub-Delivery) is answered 200 as a duplicate and handled once", async () => {
    env = await forgeBot();
    const delivery = randomUUID();
    const payload = prComment(REPO, 3, "octocat", "just a remark, no mention");
    const first = await postGitHub(env.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload,
      delivery,
    });
    const again = await postGitHub(env.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload,
      delivery,
    });
    expect([first.status, again.status]).toEqual([202, 200]);
    expect(JSON.parse(again.body)).toEqual({ ok: true, duplicate: true });
    expect(await env.deliveries.count()).toBe(1);
    expect(await env.outcome("github", delivery)).toBe("ignored");
  }, 60_000);

  it("S-FORGE-03: a GitLab delivery is accepted only with the project's secret as X-Gitlab-Token", async () => {
    env = await forgeBot();
    const dir = env.siblingDir("lab");
    await env.api.projects.add(ADMIN_ACTOR, { name: "lab", path: dir, ownerId: ADMIN_ACTOR.userId });
    await env.api.projects.setForge(ADMIN_ACTOR, "lab", { forge: "gitlab", forgeRepo: "group/app" });
    await env.api.forge.setWebhookSecret(ADMIN_ACTOR, "lab", "gitlab-token-for-tests-01");
    const payload = mrNote("group/app", 4, "tanuki", "hello");
    const none = await postGitLab(env.base, { token: null, event: "Note Hook", payload });
    const wrong = await postGitLab(env.base, {
      token: "gitlab-token-for-tests-02",
      event: "Note Hook",
      payload,
    });
    // The demo project's secret is not the lab's: a secret is per project.
    const otherProjects = await postGitLab(env.base, { token: HOOK_SECRET, event: "Note Hook", payload });
    expect([none.status, wrong.status, otherProjects.status]).toEqual([401, 401, 401]);
    expect(await env.deliveries.count()).toBe(0);
    const right = await postGitLab(env.base, {
      token: "gitlab-token-for-tests-01",
      event: "Note Hook",
      payload,
    });
    expect(right.status).toBe(202);
    expect(await env.deliveries.count()).toBe(1);
  }, 60_000);

  it("S-FORGE-04: an unlinked author's mention gets one reply on the pull request saying how to link, once per pull request, and nothing runs", async () => {
    env = await forgeBot();
    await env.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    await env.github.addPull(REPO, { title: "Another", head: "another" });
    const mention = (n: number, text: string) =>
      postGitHub(env!.base, {
        secret: HOOK_SECRET,
        event: "issue_comment",
        payload: prComment(REPO, n, "stranger", text),
        delivery: `${n}-${text}`,
      });
    await mention(1, "@codexpi fix the tests");
    expect(await env.outcome("github", "1-@codexpi fix the tests")).toBe("not_linked");
    await mention(1, "@codexpi please?");
    expect(await env.outcome("github", "1-@codexpi please?")).toBe("not_linked");
    const replies = env.github.comments(REPO);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ number: 1 });
    expect(replies[0]!.body).toContain("@stranger");
    expect(replies[0]!.body).toContain("/codex forge link github");
    // Positive control: the same author on another pull request is told there too.
    await mention(2, "@codexpi fix it");
    expect(await env.outcome("github", "2-@codexpi fix it")).toBe("not_linked");
    await eventually(() => env!.github.comments(REPO).length === 2, 10_000, "the second reply");
    expect(await env.queued()).toBe(0);
  }, 60_000);
});

describe("a delivery whose handling fails", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-11: is tried again later: a reply the forge could not take (no token yet) is posted once the token is there, once", async () => {
    env = await forgeBot();
    const e = env;
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    await e.api.projects.removeForgeToken(ADMIN_ACTOR, "demo");
    const delivery = "d-retry";
    const payload = prComment(REPO, 1, "stranger", "@codexpi fix it");
    expect(
      (await postGitHub(e.base, { secret: HOOK_SECRET, event: "issue_comment", payload, delivery })).status,
    ).toBe(202);
    await eventually(
      async () =>
        (await e.db.selectFrom("forge_deliveries").select("attempts").executeTakeFirst())?.attempts === 1,
      10_000,
      "a failed attempt",
    );
    expect(e.github.comments(REPO)).toHaveLength(0);
    expect(await e.deliveries.outcome("github", delivery)).toBeNull();
    await e.api.projects.setForgeToken(ADMIN_ACTOR, "demo", TOKEN);
    expect(await e.outcome("github", delivery)).toBe("not_linked");
    expect(e.github.comments(REPO)).toHaveLength(1);
  }, 60_000);
});
