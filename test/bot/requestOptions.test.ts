import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { addProject } from "../../src/engine/projects/index.js";
import { laneOf } from "../../src/engine/lanes/index.js";
import { BLOCKS } from "../../src/views/ids.js";
import { inputText, type ResponsesRequestBody } from "../support/fakeModel.js";
import { ADMIN, eventually, OWNER, slackBot } from "../support/slackBot.js";
import { appMentionEvent, messageEvent } from "../support/slackRequests.js";
import { git, isolateGit } from "../engine/orchestrations/repo.js";

// Issue 19, item 4 end to end through the real bot (signed HTTP, notifier, ticker), real
// `codexpi worker` processes and the real Codex binary against the fake model: `model=`,
// `effort=` and `branch=` after the project name reach Codex's requests and the lane; a refused
// option is answered with the allowed values and nothing runs. The configured model is gpt-5.5 at
// effort low (test/support/codexHome.ts): the options ask for others, so that the check can fail.

type Bot = Awaited<ReturnType<typeof slackBot>>;

/** The requests of one prompt (its marker in the input). */
const requestsOf = (b: Bot, marker: string): ResponsesRequestBody[] =>
  b.model.requests.filter((r) => inputText(r).includes(marker));

/** A branch-mode project `repo` whose `feature` branch is one commit ahead of `main`. */
async function repoProject(b: Bot): Promise<{ root: string; feature: string }> {
  isolateGit();
  const root = path.join(path.dirname(b.config.dataDir), "repo");
  fs.mkdirSync(root);
  await git(root, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(root, "app.txt"), "base\n");
  await git(root, "add", "app.txt");
  await git(root, "commit", "-q", "-m", "Base");
  await git(root, "checkout", "-q", "-b", "feature");
  fs.writeFileSync(path.join(root, "feature.txt"), "feature\n");
  await git(root, "add", "feature.txt");
  await git(root, "commit", "-q", "-m", "Feature");
  const feature = await git(root, "rev-parse", "HEAD");
  await git(root, "checkout", "-q", "main");
  await addProject(
    b.db,
    { now: () => Date.now() },
    { name: "repo", path: root, ownerId: OWNER, workspaceMode: "branch" },
  );
  return { root, feature };
}

describe("per-request options through the real bot", () => {
  let bot: Bot | undefined;
  afterEach(async () => {
    await bot?.close();
    bot = undefined;
  });

  const say = async (b: Bot, text: string, user = ADMIN) => {
    const r = await b.command(text, user);
    const response = await b.response(r.responseId);
    return [response.text ?? "", JSON.stringify(response.blocks ?? [])].join("\n");
  };
  const allowedOf = async (b: Bot) =>
    (
      await b.db
        .selectFrom("projects")
        .select("allowed_models")
        .where("name", "=", "repo")
        .executeTakeFirstOrThrow()
    ).allowed_models;

  it.each(["exec", "app-server"] as const)(
    "S-OPT-05 (%s runner): `/codex ask repo model= effort= branch= …` runs with that model and effort at every turn, in a lane based on the branch, and the thread's root shows them",
    async (runner) => {
      bot = await slackBot({ env: { CODEXPI_RUNNER: runner } });
      const b = bot;
      const { feature } = await repoProject(b);
      expect(await say(b, "project set repo --models gpt-5.5,gpt-5.6-terra")).toContain(
        "gpt-5.5, gpt-5.6-terra",
      );

      await b.command("ask repo model=gpt-5.6-terra effort=high branch=feature OPT-ALPHA do X", OWNER);
      const conversation = await eventually(
        async () => (await b.db.selectFrom("conversations").selectAll().executeTakeFirst()) ?? null,
      );
      expect(conversation).toMatchObject({ model: "gpt-5.6-terra", effort: "high", base_branch: "feature" });
      const item = await eventually(
        async () => {
          const row = await b.db.selectFrom("prompt_queue").selectAll().executeTakeFirst();
          return row && ["done", "failed", "cancelled"].includes(row.status) ? row : null;
        },
        90_000,
        "the turn over",
      );
      expect({ status: item.status, error: item.error }).toEqual({ status: "done", error: null });
      const asked = requestsOf(b, "OPT-ALPHA");
      expect(asked.length).toBeGreaterThan(0);
      for (const r of asked) {
        expect(r.model).toBe("gpt-5.6-terra");
        expect((r.reasoning as { effort?: string } | undefined)?.effort).toBe("high");
      }
      // The prompt reached the agent without its options.
      expect(inputText(asked[0]!)).toContain("OPT-ALPHA do X");
      expect(inputText(asked[0]!)).not.toContain("branch=feature");
      const lane = await laneOf(b.db, conversation.id);
      expect(lane).toMatchObject({ base_branch: "feature", base_commit: feature });

      // The thread's root (the state message) shows the options under the prompt.
      const root = await eventually(() =>
        b.slack.messages().find((m) => JSON.stringify(m.blocks ?? []).includes(BLOCKS.conversationRequest)),
      );
      const request = JSON.stringify(root.blocks);
      expect(request).toContain("modèle `gpt-5.6-terra`");
      expect(request).toContain("effort `high`");
      expect(request).toContain("base `feature`");

      // A follow-up in the thread runs with the same model and effort (a resumed Codex thread).
      await b.event(
        messageEvent({
          user: OWNER,
          channel: root.channel,
          text: "OPT-BRAVO and then",
          ts: "1800000000.000100",
          thread_ts: root.ts,
        }),
      );
      await eventually(
        () => (requestsOf(b, "OPT-BRAVO").length ? true : null),
        90_000,
        "the follow-up's request",
      );
      for (const r of requestsOf(b, "OPT-BRAVO")) {
        expect(r.model).toBe("gpt-5.6-terra");
        expect((r.reasoning as { effort?: string } | undefined)?.effort).toBe("high");
      }
    },
    180_000,
  );

  it("S-OPT-06: a refused option gets the ephemeral answer with the allowed values and nothing runs; only admins set the list, shown in `/codex projects`", async () => {
    bot = await slackBot();
    const b = bot;
    await repoProject(b);
    // The owner is no admin: the list stays as it was.
    expect(await say(b, "project set repo --models gpt-5.6-terra", OWNER)).toMatch(/réservé aux admins/i);
    expect(await allowedOf(b)).toBeNull();
    expect(await say(b, "project set repo --models gpt-5.5,gpt-5.6-luna")).toContain("gpt-5.5, gpt-5.6-luna");
    expect(await allowedOf(b)).toBe(JSON.stringify(["gpt-5.5", "gpt-5.6-luna"]));
    expect(await say(b, "projects", OWNER)).toContain("modèles : gpt-5.5, gpt-5.6-luna");

    const posted = b.slack.messages().length;
    const refusals = [
      ["ask repo model=gpt-5.6-terra do X", "gpt-5.5, gpt-5.6-luna"],
      ["ask repo effort=max do X", "low, medium, high"],
      ["ask repo branch=nope do X", "feature, main"],
      ["ask demo branch=main do X", "mode direct"],
    ] as const;
    for (const [text, allowed] of refusals) expect(await say(b, text, OWNER)).toContain(allowed);
    // The same words in a mention: its ephemeral answer lists the allowed values.
    await b.event(
      appMentionEvent({
        user: OWNER,
        channel: "C2",
        text: `<@${b.slack.botUserId}> repo model=gpt-5.6-terra do X`,
        ts: "1800000001.000100",
      }),
    );
    const ephemeral = await eventually(() => b.slack.ephemerals.find((e) => e.channel === "C2"));
    expect(ephemeral.text).toContain("gpt-5.5, gpt-5.6-luna");
    // Nothing ran, nothing was queued, nothing was posted but the refusals (ephemeral answers).
    expect(await b.db.selectFrom("conversations").select("id").execute()).toEqual([]);
    expect(await b.db.selectFrom("prompt_queue").select("id").execute()).toEqual([]);
    expect(b.model.requests.length).toBe(0);
    expect(b.slack.messages().length).toBe(posted);

    // In a DM the refusal is the one reply posted, in the DM's thread; still nothing runs.
    await b.event(
      messageEvent({ user: OWNER, channel: "D1", text: "repo effort=max do X", ts: "1800000002.000100" }),
    );
    const dm = await eventually(() =>
      b.slack.messages("D1").find((m) => m.text.includes("low, medium, high")),
    );
    expect(dm.thread_ts).toBe("1800000002.000100");
    expect(b.slack.messages().length).toBe(posted + 1);
    expect(await b.db.selectFrom("conversations").select("id").execute()).toEqual([]);

    // The positive control: the same request with an allowed model runs.
    await b.command("ask repo model=gpt-5.6-luna OPT-GAMMA do X", OWNER);
    await eventually(() => (requestsOf(b, "OPT-GAMMA").length ? true : null), 90_000, "the allowed request");
    expect(requestsOf(b, "OPT-GAMMA")[0]?.model).toBe("gpt-5.6-luna");
    expect(b.slack.messages().length).toBeGreaterThan(posted);
  }, 120_000);
});
