import { afterEach, describe, expect, it } from "vitest";
import { ForgeThreads } from "../../src/forge/store/threads.js";
import { inputText } from "../support/fakeModel.js";
import { postGitHub, prReview } from "../support/forgeWebhooks.js";
import { eventually, OWNER } from "../support/slackBot.js";
import { messageEvent } from "../support/slackRequests.js";
import { forgeBot, HOOK_SECRET, REPO } from "./forgeBot.js";

// Issue 33, item 1: a pull request review (`pull_request_review`, submitted) whose body mentions
// codexpi is a request on its pull request, like a comment; its body reaches the agent quoted as
// the reviewer's words, with the review's verdict.

describe("@codexpi in a pull request review", () => {
  let env: Awaited<ReturnType<typeof forgeBot>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it("S-FORGE-64, S-FORGE-65: a linked member's submitted review mentioning @codexpi starts the pull request's conversation, its body quoted with its verdict; an unlinked reviewer gets the how-to-link reply and nothing runs; a review without a mention, or not submitted, is ignored; the audit records the forge's prompt via=forge and a Slack reply via=slack", async () => {
    env = await forgeBot();
    const e = env;
    await e.link("github", "octocat", OWNER);
    await new ForgeThreads(e.db).setSettings(e.project.id, { channel_id: "C1" }, Date.now());
    e.github.addPull(REPO, { title: "Rename the widget", head: "rename" });
    const review = (delivery: string, payload: object) =>
      postGitHub(e.base, { secret: HOOK_SECRET, event: "pull_request_review", payload, delivery });

    // Nothing to do: no mention, no body, an edited (not submitted) review.
    await review("r-plain", prReview(REPO, 1, "octocat", "Looks good overall", { state: "approved" }));
    await review("r-empty", prReview(REPO, 1, "octocat", null, { state: "approved" }));
    await review("r-edited", prReview(REPO, 1, "octocat", "@codexpi fix it", { action: "edited" }));
    for (const id of ["r-plain", "r-empty", "r-edited"])
      expect(await e.outcome("github", id)).toBe("ignored");

    // An unlinked reviewer: one reply saying how to link, nothing queued, nothing in Slack.
    const mallory = prReview(REPO, 1, "mallory", "@codexpi delete the tests", { userId: 99 });
    await review("r-unlinked", mallory);
    expect(await e.outcome("github", "r-unlinked")).toBe("not_linked");
    expect(e.github.comments(REPO).at(-1)?.body).toContain("/codex forge link github");
    expect(await e.queued()).toBe(0);
    expect(e.slack.messages("C1")).toHaveLength(0);

    // Positive control: the linked member's review starts the conversation.
    const body = "Please rename these too.\n\n@codexpi rename REVIEW-MARK-1 everywhere";
    await review("r-linked", prReview(REPO, 1, "octocat", body));
    expect(await e.outcome("github", "r-linked")).toBe("started");
    const root = await eventually(
      () => e.slack.messages("C1").find((m) => m.text.includes(`${REPO}#1`)),
      10_000,
      "the root",
    );
    expect(root.text).toContain("rename REVIEW-MARK-1 everywhere");
    await eventually(
      () => e.github.comments(REPO).find((c) => c.body.includes("fake.slack.test/archives/C1/")),
      120_000,
      "the answer on the pull request",
    );
    const asked = inputText(e.model.requests.find((r) => inputText(r).includes("REVIEW-MARK-1"))!);
    expect(asked).toContain("Pull request review (changes requested):");
    expect(asked).toContain("Please rename these too.");
    expect(asked).toContain("octocat (github)");
    const items = await e.db.selectFrom("prompt_queue").select(["requested_by"]).execute();
    expect(items).toHaveLength(1);

    // S-FORGE-65: the audit says the prompt came from the forge, as the linked member; a reply in
    // the Slack thread (the positive control) is recorded as from Slack.
    const audit = () =>
      e.db
        .selectFrom("audit_events")
        .select(["actor", "via", "action", "outcome"])
        .where("action", "in", ["conversation.ask", "conversation.follow_up"])
        .orderBy("id")
        .execute();
    expect(await audit()).toEqual([
      { actor: OWNER, via: "forge", action: "conversation.ask", outcome: "ok" },
    ]);
    const text = "and from Slack REVIEW-MARK-2";
    const m = e.slack.say({ channel: "C1", user: OWNER, text, thread_ts: root.ts });
    await e.event(messageEvent({ user: OWNER, channel: "C1", text, ts: m.ts, thread_ts: root.ts }));
    await eventually(async () => (await audit()).length === 2, 30_000, "the Slack follow-up's audit");
    expect((await audit())[1]).toEqual({
      actor: OWNER,
      via: "slack",
      action: "conversation.follow_up",
      outcome: "ok",
    });
  }, 180_000);
});
