import { afterEach, describe, expect, it } from "vitest";
import { ForgeDeliveries } from "../../src/forge/store/deliveries.js";
import { ForgePolling } from "../../src/forge/store/polling.js";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { createLogger } from "../../src/logger.js";
import { inputText } from "../support/fakeModel.js";
import { issueLabelled, postGitHub, postGitLab, prComment } from "../support/forgeWebhooks.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { ADMIN_ACTOR, forgeBot, GITLAB_HOOK_SECRET, HOOK_SECRET, REPO, TOKEN } from "./forgeBot.js";

// Issue 33, item 1, polling mode ("Polling mode passes the comment test without webhooks"): the
// real bot, the real worker and the real Codex against the fake model; the comments written only
// into the fake forge, which the coordinator reads every second (CODEXPI_FORGE_POLL_SECONDS=1).

const POLL = { CODEXPI_FORGE_POLL_SECONDS: "1" };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Env = Awaited<ReturnType<typeof forgeBot>>;

/** The GitHub listing requests the fake received from `from` on. */
const listings = (e: Env, from = 0) =>
  e.github.received
    .slice(from)
    .filter((r) => r.method === "GET" && /\/(issues|pulls)\/comments\?/.test(r.url));

/** A linked `octocat`, the project's channel C1, a pull request #1; polling on unless `poll` is false. */
async function polledDemo(e: Env, poll = true) {
  await e.link("github", "octocat", OWNER);
  await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
  e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
  if (poll) await new ForgePolling(e.db).setPoll(e.project.id, true, Date.now());
}

const answersOnPull = (e: Env) =>
  e.github.comments(REPO).filter((c) => c.body.includes("fake.slack.test/archives/C1/"));

describe("polling mode", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-40: polling mode passes the comment test without webhooks: a linked member's @codexpi on a pull request, written only on the forge (no webhook, no secret), makes the Slack thread, the model request and the answer on the pull request; a poll with nothing new sends If-None-Match, is answered 304 and runs nothing, and a new comment then runs (positive control); a comment older than polling is never acted on", async () => {
    env = await forgeBot({ env: POLL });
    const e = env;
    expect(await e.api.forge.removeWebhookSecret(ADMIN_ACTOR, "demo")).toBe(true);
    // Written before polling was turned on: never acted on.
    e.github.discussion.add(REPO, 1, {
      login: "octocat",
      body: "@codexpi OLD-MARK from before",
      at: new Date(Date.now() - 120_000),
    });
    await polledDemo(e);
    await eventually(() => listings(e).length >= 2, 10_000, "the first polls");
    const c = e.github.discussion.add(REPO, 1, {
      login: "octocat",
      body: "@codexpi rename POLL-MARK-1 please",
    });
    expect(await e.outcome("github", `poll:issue_comment:${c.id}`)).toBe("started");

    const root = await eventually(
      () => e.slack.messages("C1").find((m) => m.text.includes(`${REPO}#1`)),
      10_000,
      "the root",
    );
    expect(root.text).toContain("octocat");
    expect(root.text).toContain("POLL-MARK-1");
    const answer = await eventually(() => answersOnPull(e)[0], 120_000, "the answer on the pull request");
    expect(answer.number).toBe(1);
    expect(answer.body).toContain(`p${root.ts.replace(".", "")}`);
    expect(e.model.requests.some((r) => inputText(r).includes("POLL-MARK-1"))).toBe(true);
    expect(e.model.requests.some((r) => inputText(r).includes("OLD-MARK"))).toBe(false);
    // The request's shape: since, oldest updated first, a page of 100, both listings.
    const first = new URL(listings(e)[0]!.url, "http://x");
    expect(first.searchParams.get("sort")).toBe("updated");
    expect(first.searchParams.get("direction")).toBe("asc");
    expect(first.searchParams.get("per_page")).toBe("100");
    expect(Number.isNaN(Date.parse(first.searchParams.get("since") ?? ""))).toBe(false);
    expect(listings(e).some((r) => r.url.includes("/pulls/comments?"))).toBe(true);

    // codexpi's own answer is read back by the next poll, and recognised as its own.
    const own = e.github.discussion.conversation(REPO).find((x) => x.user.login === "codexpi-bot")!;
    expect(await e.outcome("github", `poll:issue_comment:${own.id}`)).toBe("ignored");
    // Nothing new: the same query sent again with the last ETag, answered 304, and nothing runs.
    const mark = e.github.received.length;
    const queued = await e.queued();
    const journaled = await e.deliveries.count();
    const unchanged = await eventually(
      () => listings(e, mark).find((r) => r.status === 304 && r.url.includes("/issues/comments?")),
      15_000,
      "a 304",
    );
    expect(unchanged.headers["if-none-match"]).toMatch(/^W\/"/);
    await pause(1_500);
    expect(await e.queued()).toBe(queued);
    expect(await e.deliveries.count()).toBe(journaled);

    // Positive control: a new comment is read and continues the conversation.
    const again = e.github.discussion.add(REPO, 1, { login: "octocat", body: "@codexpi now POLL-MARK-2" });
    expect(await e.outcome("github", `poll:issue_comment:${again.id}`)).toBe("continued");
    await eventually(() => answersOnPull(e).length === 2, 120_000, "the second answer");
    expect(await e.queued()).toBe(queued + 1);
  }, 300_000);

  it("S-FORGE-41: with polling off nothing is read from the forge, and a comment there runs nothing; turned on, the forge is read (positive control)", async () => {
    env = await forgeBot({ env: POLL });
    const e = env;
    await polledDemo(e, false);
    e.github.discussion.add(REPO, 1, { login: "octocat", body: "@codexpi POLL-OFF-MARK" });
    await pause(3_000);
    expect(listings(e)).toHaveLength(0);
    expect(await e.deliveries.count()).toBe(0);
    await new ForgePolling(e.db).setPoll(e.project.id, true, Date.now());
    await eventually(() => listings(e).length >= 2, 10_000, "the polls once on");
    // The comment written while polling was off is older than polling: not acted on either.
    await pause(1_500);
    expect(await e.queued()).toBe(0);
    await new ForgePolling(e.db).setPoll(e.project.id, false, Date.now());
    await pause(1_200);
    const mark = e.github.received.length;
    await pause(2_500);
    expect(listings(e, mark)).toHaveLength(0);
  }, 120_000);

  it("S-FORGE-42: the same on GitLab: a linked member's @codexpi note on a merge request, without webhook or secret, runs and is answered on the merge request; polling off reads nothing (positive control: on)", async () => {
    env = await forgeBot({ env: POLL });
    const e = env;
    const { gitlab, projectId } = await e.labOnGitLab();
    expect(await e.api.forge.removeWebhookSecret(ADMIN_ACTOR, "lab")).toBe(true);
    await e.link("gitlab", "tanuki", OWNER);
    await new ForgeThreads(e.db).setSettings(projectId, { channel_id: "C1" }, Date.now());
    const iid = gitlab.addMergeRequest("group/app", { title: "Rename the widget", source: "rename" });
    const events = () => gitlab.received.filter((r) => r.method === "GET" && r.url.includes("/events?"));
    await pause(2_500);
    expect(events()).toHaveLength(0);
    await new ForgePolling(e.db).setPoll(projectId, true, Date.now());
    await eventually(() => events().length >= 1, 10_000, "the first poll");
    const q = new URL(events()[0]!.url, "http://x").searchParams;
    expect(q.get("action")).toBe("commented");
    expect(q.get("sort")).toBe("asc");
    expect(q.get("after")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const note = gitlab.events.add("group/app", iid, {
      username: "tanuki",
      body: "@codexpi rename LAB-POLL-1",
    });
    expect(await e.outcome("gitlab", `poll:note:${note}`)).toBe("started");
    const answer = await eventually(
      () => gitlab.notes("group/app").find((n) => n.body.includes("fake.slack.test/archives/C1/")),
      120_000,
      "the answer on the merge request",
    );
    expect(answer.iid).toBe(iid);
    expect(e.model.requests.some((r) => inputText(r).includes("LAB-POLL-1"))).toBe(true);
    // Its own answer, read back by the next polls, is recognised and runs nothing.
    await pause(2_500);
    expect(await e.queued()).toBe(1);
  }, 300_000);

  it("S-FORGE-43: a comment both polled and delivered by webhook is handled once, whichever comes first; another comment still runs (positive control)", async () => {
    env = await forgeBot({ env: POLL });
    const e = env;
    await polledDemo(e);
    await eventually(() => listings(e).length >= 2, 10_000, "the first polls");
    const c = e.github.discussion.add(REPO, 1, { login: "octocat", body: "@codexpi TWIN-MARK once" });
    const payload = prComment(REPO, 1, "octocat", c.body);
    const sent = await postGitHub(e.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload: { ...payload, comment: { ...payload.comment, id: c.id } },
      delivery: "d-twin",
    });
    expect(sent.status).toBe(202);
    const outcomes = [
      await e.outcome("github", "d-twin"),
      await e.outcome("github", `poll:issue_comment:${c.id}`),
    ].sort();
    expect(outcomes).toEqual(["duplicate", "started"]);
    expect(await e.queued()).toBe(1);
    expect(e.slack.messages("C1").filter((m) => m.text.includes("TWIN-MARK") && !m.thread_ts)).toHaveLength(
      1,
    );
    // Positive control: another comment, by webhook alone, continues the conversation.
    const other = prComment(REPO, 1, "octocat", "@codexpi TWIN-MARK-2 too");
    await postGitHub(e.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload: other,
      delivery: "d-other",
    });
    expect(await e.outcome("github", "d-other")).toBe("continued");
    expect(await e.queued()).toBe(2);
  }, 300_000);

  it("S-FORGE-44: the cursor is durable: after a restart, a comment written while codexpi was down is handled, and none handled before is handled again", async () => {
    env = await forgeBot({ env: POLL });
    const e = env;
    await polledDemo(e);
    // Two passes (a second apart): the comment is a second younger than polling, at least.
    await eventually(() => listings(e).length >= 4, 10_000, "the first polls");
    const a = e.github.discussion.add(REPO, 1, { login: "octocat", body: "@codexpi DURABLE-A" });
    expect(await e.outcome("github", `poll:issue_comment:${a.id}`)).toBe("started");
    await eventually(() => answersOnPull(e).length === 1, 120_000, "the first answer");
    await e.bot.stop();
    if (e.config.database.dialect === "sqlite") await pause(500);
    const b = e.github.discussion.add(REPO, 1, { login: "octocat", body: "@codexpi DURABLE-B" });
    const mark = e.github.received.length;
    const restarted = await e.another();
    try {
      const deliveries = new ForgeDeliveries(restarted.engine.db);
      expect(
        await eventually(
          () => deliveries.outcome("github", `poll:issue_comment:${b.id}`),
          30_000,
          "B handled",
        ),
      ).toBe("continued");
      // The restarted serve read on from the cursor it had saved, not from when polling started.
      const resumed = new URL(listings(e, mark)[0]!.url, "http://x").searchParams.get("since") ?? "";
      expect(Date.parse(resumed)).toBeGreaterThanOrEqual(Date.parse(a.updated_at));
      await eventually(() => answersOnPull(e).length === 2, 120_000, "the second answer");
      await pause(2_000);
      const asked = (mark: string) => e.model.requests.filter((r) => inputText(r).includes(mark)).length;
      expect(asked("DURABLE-B")).toBeGreaterThan(0);
      const items = await restarted.engine.db.selectFrom("prompt_queue").select("id").execute();
      expect(items).toHaveLength(2);
      const rows = await restarted.engine.db
        .selectFrom("forge_deliveries")
        .select("delivery_id")
        .where("delivery_id", "=", `poll:issue_comment:${a.id}`)
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await restarted.stop();
    }
  }, 300_000);

  it("S-FORGE-46: a spent rate limit stops the project's polls until the reset the forge gave, which the log says (without the token); they resume then (positive control)", async () => {
    const lines: string[] = [];
    env = await forgeBot({
      env: POLL,
      logger: createLogger("info", { write: (l: string) => void lines.push(l) }),
    });
    const e = env;
    await polledDemo(e);
    await eventually(() => listings(e).length >= 2, 10_000, "the first polls");
    const reset = Math.ceil(Date.now() / 1000) + 4;
    e.github.discussion.refuseNext = {
      status: 403,
      body: { message: "API rate limit exceeded" },
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) },
    };
    // The index just after the refused request.
    const refused = await eventually(
      () => {
        const at = e.github.received.findIndex((r) => r.status === 403);
        return at >= 0 ? at + 1 : null;
      },
      10_000,
      "the refusal",
    );
    const logged = await eventually(
      () => lines.find((l) => l.includes("forge rate limit reached")),
      10_000,
      "the log line",
    );
    expect(logged).toContain(new Date(reset * 1000).toISOString());
    expect(lines.join("\n")).not.toContain(TOKEN);
    // Nothing asked of the forge before the reset (a second of slack for the clock's rounding)…
    while (Date.now() < reset * 1000 - 1_000) await pause(200);
    expect(listings(e, refused)).toHaveLength(0);
    // …and the polls resume after it.
    await eventually(() => listings(e, refused).length > 0, 10_000, "the polls after the reset");
  }, 120_000);

  it("S-FORGE-40: issues too: an issue given the project's label, only on the forge, starts a conversation whose answer is posted on the issue; the same label also delivered by webhook is handled once", async () => {
    env = await forgeBot({ env: POLL });
    const e = env;
    await polledDemo(e);
    await eventually(() => listings(e).length >= 2, 10_000, "the first polls");
    const id = e.github.discussion.label(REPO, 7, {
      login: "octocat",
      label: "codexpi",
      body: "Rename oldName to newName LABEL-POLL-7",
    });
    expect(await e.outcome("github", `poll:issue_label:${id}`)).toBe("started");
    const answer = await eventually(
      () => answersOnPull(e).find((c) => c.number === 7),
      120_000,
      "the answer on the issue",
    );
    expect(answer.body).toContain("fake.slack.test/archives/C1/");
    expect(e.model.requests.some((r) => inputText(r).includes("LABEL-POLL-7"))).toBe(true);
    // The webhook's twin of that label runs nothing more.
    const twin = issueLabelled(REPO, 7, "octocat", "codexpi", "Rename oldName to newName LABEL-POLL-7");
    await postGitHub(e.base, { secret: HOOK_SECRET, event: "issues", payload: twin, delivery: "d-label" });
    expect(await e.outcome("github", "d-label")).toBe("duplicate");
    expect(await e.queued()).toBe(1);
  }, 300_000);

  it("S-FORGE-42: issues too on GitLab: an issue given the project's label, only on GitLab, starts a conversation whose answer is a note on the issue; the same label also delivered by webhook is handled once", async () => {
    env = await forgeBot({ env: POLL });
    const e = env;
    const { gitlab, projectId } = await e.labOnGitLab();
    await e.link("gitlab", "tanuki", OWNER);
    await new ForgeThreads(e.db).setSettings(projectId, { channel_id: "C1" }, Date.now());
    await new ForgePolling(e.db).setPoll(projectId, true, Date.now());
    await eventually(
      () => gitlab.received.some((r) => r.method === "GET" && /\/issues\?/.test(r.url)),
      10_000,
      "the first poll of issues",
    );
    const iid = gitlab.issues.add("group/app", 100, {
      title: "Misnamed",
      description: "Rename it LAB-LABEL-1",
    });
    const ev = gitlab.issues.label("group/app", iid, { username: "tanuki", label: "codexpi" });
    expect(await e.outcome("gitlab", `poll:issue_label:${ev}`)).toBe("started");
    const answer = await eventually(
      () =>
        gitlab
          .notes("group/app")
          .find((n) => n.on === "issue" && n.body.includes("fake.slack.test/archives/C1/")),
      120_000,
      "the answer on the issue",
    );
    expect(answer.iid).toBe(iid);
    expect(e.model.requests.some((r) => inputText(r).includes("LAB-LABEL-1"))).toBe(true);
    // The webhook's twin of that label (an Issue Hook whose labels gained it) runs nothing more.
    const label = [{ title: "codexpi" }];
    const twin = {
      object_kind: "issue",
      user: { username: "tanuki", id: 42 },
      project: { id: 100, path_with_namespace: "group/app" },
      object_attributes: {
        iid,
        title: "Misnamed",
        description: "Rename it LAB-LABEL-1",
        url: `https://gitlab.example/group/app/-/issues/${iid}`,
        action: "update",
      },
      labels: label,
      changes: { labels: { previous: [], current: label } },
    };
    const sent = await postGitLab(e.base, {
      token: GITLAB_HOOK_SECRET,
      event: "Issue Hook",
      payload: twin,
      uuid: "d-lab-label",
    });
    expect(sent.status).toBe(202);
    expect(await e.outcome("gitlab", "d-lab-label")).toBe("duplicate");
    expect(await e.queued()).toBe(1);
  }, 300_000);
});
