import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { inputText } from "../support/fakeModel.js";
import {
  issueAssigned,
  issueLabelled,
  postGitHub,
  prComment,
  reviewComment,
} from "../support/forgeWebhooks.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { messageEvent } from "../support/slackRequests.js";
import { forgeBot, HOOK_SECRET, REPO } from "./forgeBot.js";

// Issue 33, item 3, end to end: a signed delivery to the real bot's listener, the real worker and
// the real Codex against the fake model, the answer posted back on the fake GitHub.

const HUNK = "@@ -40,3 +40,3 @@ export class Widget {\n-  oldName() {\n+  newName() {";

describe("@codexpi in a pull request", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-05: a linked member's review comment starts a conversation in the project's channel, whose root names the pull request and its author, with the file, line and hunk quoted as someone else's words; the answer goes back on the pull request with a link to the Slack thread; a new mention on the pull request, and a reply in the Slack thread, continue the same conversation", async () => {
    env = await forgeBot();
    const e = env;
    await e.link("github", "OctoCat", OWNER);
    await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const review = reviewComment(REPO, 1, "octocat", "@codexpi rename FORGE-MARK-1 here too", {
      path: "src/widget.ts",
      line: 42,
      hunk: HUNK,
      head: "rename",
    });
    const sent = await postGitHub(e.base, {
      secret: HOOK_SECRET,
      event: "pull_request_review_comment",
      payload: review,
      delivery: "d-review",
    });
    expect(sent.status).toBe(202);
    expect(await e.outcome("github", "d-review")).toBe("started");

    const root = await eventually(
      () => e.slack.messages("C1").find((m) => m.text.includes(`${REPO}#1`)),
      10_000,
      "the root",
    );
    expect(root.text).toContain("octocat");
    expect(root.text).toContain(`https://github.example/${REPO}/pull/1`);
    expect(root.text).toContain("rename FORGE-MARK-1 here too");

    const answer = await eventually(
      () => e.github.comments(REPO).find((c) => c.body.includes("fake.slack.test/archives/C1/")),
      120_000,
      "the answer on the pull request",
    );
    expect(answer.number).toBe(1);
    expect(answer.body).toContain("ok");
    expect(answer.body).toContain(`p${root.ts.replace(".", "")}`);
    // The review comment's place reached the agent, quoted as the reviewer's words, not as the prompt.
    const asked = inputText(e.model.requests.find((r) => inputText(r).includes("FORGE-MARK-1"))!);
    expect(asked).toContain("src/widget.ts");
    expect(asked).toContain("line 42");
    expect(asked).toContain("+  newName() {");
    expect(asked).toContain("octocat (github)");
    // The conversation is the member's, and its answer also went to its Slack thread.
    const items = await e.db.selectFrom("prompt_queue").select(["conversation_id", "requested_by"]).execute();
    expect(items).toHaveLength(1);
    const conversation = await e.db
      .selectFrom("conversations")
      .selectAll()
      .where("id", "=", items[0]!.conversation_id)
      .executeTakeFirstOrThrow();
    expect(conversation.user_id).toBe(OWNER);
    await eventually(
      () => e.slack.messages("C1").some((m) => m.thread_ts === root.ts && m.text.includes("ok")),
      30_000,
      "the answer in Slack",
    );

    // A new @codexpi on the same pull request continues the same conversation.
    const again = await postGitHub(e.base, {
      secret: HOOK_SECRET,
      event: "issue_comment",
      payload: prComment(REPO, 1, "octocat", "thanks! @codexpi now FORGE-MARK-2 please"),
      delivery: "d-again",
    });
    expect(again.status).toBe(202);
    expect(await e.outcome("github", "d-again")).toBe("continued");
    await eventually(() => e.github.comments(REPO).length === 2, 120_000, "the second answer");
    const after = await e.db.selectFrom("prompt_queue").select(["conversation_id"]).execute();
    expect(after.map((i) => i.conversation_id)).toEqual([conversation.id, conversation.id]);
    expect(e.slack.messages("C1").filter((m) => m.text.includes(`${REPO}#1`) && !m.thread_ts)).toHaveLength(
      1,
    );

    // A reply in the Slack thread continues it too.
    const text = "and FORGE-MARK-3 from Slack";
    const m = e.slack.say({ channel: "C1", user: OWNER, text, thread_ts: root.ts });
    await e.event(messageEvent({ user: OWNER, channel: "C1", text, ts: m.ts, thread_ts: root.ts }));
    const three = await eventually(
      async () => {
        const rows = await e.db.selectFrom("prompt_queue").select(["conversation_id"]).execute();
        return rows.length === 3 && rows;
      },
      30_000,
      "the Slack follow-up",
    );
    expect(new Set(three.map((i) => i.conversation_id))).toEqual(new Set([conversation.id]));
  }, 300_000);
});

describe("an issue labelled for codexpi", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-10: an issue given the project's label by a linked member starts a conversation in the channel, the issue's text quoted as its reporter's words, and the answer is posted on the issue; another label, or the project's triggers without issues, starts nothing", async () => {
    env = await forgeBot();
    const e = env;
    await e.link("github", "octocat", OWNER);
    await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
    const label = (name: string, delivery: string) =>
      postGitHub(e.base, {
        secret: HOOK_SECRET,
        event: "issues",
        payload: issueLabelled(REPO, 7, "octocat", name, "Rename oldName to newName ISSUE-MARK-7"),
        delivery,
      });
    await label("bug", "i-bug");
    expect(await e.outcome("github", "i-bug")).toBe("ignored");
    expect(await e.queued()).toBe(0);
    // `--triggers comments`: issues are not answered; with `issues` back, the same label runs.
    const threads = new ForgeThreads(e.db);
    await threads.setSettings(e.project.id, { triggers: "comments" }, Date.now());
    await label("codexpi", "i-off");
    expect(await e.outcome("github", "i-off")).toBe("trigger_off");
    expect(await e.queued()).toBe(0);
    await threads.setSettings(e.project.id, { triggers: "comments,issues" }, Date.now());
    await label("codexpi", "i-codexpi");
    expect(await e.outcome("github", "i-codexpi")).toBe("started");
    const answer = await eventually(
      () => e.github.comments(REPO).find((c) => c.body.includes("fake.slack.test/archives/C1/")),
      120_000,
      "the answer on the issue",
    );
    expect(answer.number).toBe(7);
    const asked = inputText(e.model.requests.find((r) => inputText(r).includes("ISSUE-MARK-7"))!);
    expect(asked).toContain("the issue's text, by reporter (github)");
    expect(e.slack.messages("C1").some((m) => m.text.includes(`${REPO}#7`))).toBe(true);
  }, 180_000);

  it("S-FORGE-69: an issue assigned to the bot's account (the one its handle names, any case) by a linked member starts a conversation whose answer is posted on the issue; one assigned to anyone else starts nothing (the control is the same delivery with the bot's account)", async () => {
    env = await forgeBot();
    const e = env;
    await e.link("github", "octocat", OWNER);
    await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
    const assign = (assignee: string, delivery: string) =>
      postGitHub(e.base, {
        secret: HOOK_SECRET,
        event: "issues",
        payload: issueAssigned(REPO, 8, "octocat", assignee, "Rename oldName ASSIGN-MARK-8"),
        delivery,
      });
    await assign("someone-else", "a-other");
    expect(await e.outcome("github", "a-other")).toBe("ignored");
    expect(await e.queued()).toBe(0);
    await assign("CodexPi", "a-bot");
    expect(await e.outcome("github", "a-bot")).toBe("started");
    const answer = await eventually(
      () => e.github.comments(REPO).find((c) => c.body.includes("fake.slack.test/archives/C1/")),
      120_000,
      "the answer on the issue",
    );
    expect(answer.number).toBe(8);
    expect(e.model.requests.some((r) => inputText(r).includes("ASSIGN-MARK-8"))).toBe(true);
  }, 180_000);
});
