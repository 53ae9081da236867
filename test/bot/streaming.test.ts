import { afterEach, describe, expect, it } from "vitest";
import type { FakeSlackCall, FakeSlackStream } from "../support/fakeSlack.js";
import { eventually, OWNER, slackBot, TEAM } from "../support/slackBot.js";

type Bot = Awaited<ReturnType<typeof slackBot>>;

const root = (bot: Bot) => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts);
/** The thread's messages with this exact text (the agent's answer is posted as its own message). */
const postsOf = (bot: Bot, text: string) =>
  bot.slack.callsTo("chat.postMessage").filter((c) => c.ok && c.args.text === text);
const chunksOf = (stream: FakeSlackStream) => stream.calls.flatMap((c) => c.chunks);
const indexOf = (bot: Bot, match: (c: FakeSlackCall) => boolean) => bot.slack.calls.findIndex(match);

// The real bot (Bolt, notifier, outbox, workers, the real Codex binary); Slack and the model faked.
describe("a turn as it happens in its thread", () => {
  let bot: Bot;
  afterEach(async () => bot?.close());

  it("streams the plan, each command and the agent's text while the turn runs, then stops before the answer", async () => {
    bot = await slackBot({ streaming: true });
    bot.model.enqueue(
      {
        kind: "call",
        name: "update_plan",
        arguments: {
          plan: [
            { step: "Lire le code", status: "completed" },
            { step: "Corriger le test", status: "in_progress" },
          ],
        },
      },
      // Long enough to be seen running on a loaded machine: with 3 s, the wait below for it
      // running timed out once in CI.
      { kind: "shell", command: ["sh", "-c", "sleep 8; echo step-1"], say: "Je lance les tests." },
      { kind: "text", text: "fini" },
    );
    expect((await bot.command("ask demo avec un plan")).status).toBe(200);
    const stream = await eventually(() => bot.slack.streams[0], 60_000, "a stream").catch((err: Error) => {
      // It timed out once in CI: say what Slack was asked instead, and how far the turn went.
      const calls = bot.slack.calls.map((c) => `${c.method}${c.ok ? "" : " (failed)"}`);
      throw new Error(
        `${err.message}; Slack was asked ${JSON.stringify(calls)}; the model got ${bot.model.requests.length} requests`,
      );
    });
    // While the command runs (the request carrying its output has not arrived), the stream shows it.
    const running = await eventually(
      () =>
        chunksOf(stream).some(
          (c) => c.type === "task_update" && String(c.title).includes("step-1") && c.status === "in_progress",
        ) && bot.model.requests.length,
      60_000,
      "the running command in the stream",
    );
    expect(running).toBeLessThanOrEqual(2);
    await eventually(() => postsOf(bot, "fini").length > 0, 60_000, "the answer");

    // In the conversation's thread, for its person, in order: start, appends, stop, then the answer.
    const status = root(bot);
    expect(stream.channel).toBe("C1");
    expect(stream.thread_ts).toBe(status?.ts);
    expect(stream.recipient_user_id).toBe(OWNER);
    expect(stream.recipient_team_id).toBe(TEAM);
    expect(stream.calls[0]?.method).toBe("chat.startStream");
    expect(stream.calls.at(-1)?.method).toBe("chat.stopStream");
    expect(stream.calls.slice(1, -1).every((c) => c.method === "chat.appendStream")).toBe(true);
    // The stream opens at the turn's first activity (S-QUIET-03), so its start already carries the
    // plan and the running command; what follows may come in appends or with the stop. The chunks
    // below show every step as it happened.
    expect(stream.calls.length).toBeGreaterThanOrEqual(2);
    const stopped = indexOf(bot, (c) => c.method === "chat.stopStream" && c.ok === true);
    const answered = indexOf(bot, (c) => c.method === "chat.postMessage" && c.args.text === "fini");
    expect(stopped).toBeGreaterThan(-1);
    expect(stopped).toBeLessThan(answered);

    const chunks = chunksOf(stream);
    expect(chunks).toContainEqual({ type: "plan_update", title: "Plan" });
    expect(chunks).toContainEqual({
      type: "task_update",
      id: "p1",
      title: "Lire le code",
      status: "complete",
    });
    expect(chunks).toContainEqual({
      type: "task_update",
      id: "p2",
      title: "Corriger le test",
      status: "in_progress",
    });
    const command = chunks.filter((c) => c.type === "task_update" && String(c.title).includes("step-1"));
    expect(command.map((c) => c.status)).toEqual(["in_progress", "complete"]);
    expect(chunks).toContainEqual({ type: "markdown_text", text: "Je lance les tests." });
    // The answer is posted once, by the outbox, never replaced by the stream.
    expect(postsOf(bot, "fini")).toHaveLength(1);
    await eventually(
      () => /Terminé en \d+ s/.test(JSON.stringify(root(bot)?.blocks)),
      10_000,
      "the final state",
    );
  }, 150_000);

  it("falls back to the edited status message when the workspace refuses streams, and does not ask again at the next turn", async () => {
    bot = await slackBot(); // the fake workspace refuses streams (feature_not_enabled)
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "sleep 3; echo step-1"] },
      { kind: "text", text: "fini" },
    );
    await bot.command("ask demo sans flux");
    // The status message shows the command while it runs (before the request carrying its output).
    await eventually(
      () => JSON.stringify(root(bot)?.blocks ?? "").includes("step-1") && bot.model.requests.length === 1,
      60_000,
      "the command on the status message while it runs",
    );
    await eventually(() => postsOf(bot, "fini").length > 0, 60_000, "the answer");
    const refused = bot.slack.callsTo("chat.startStream");
    expect(refused).toHaveLength(1);
    expect(refused[0]?.error).toBe("feature_not_enabled");
    expect(bot.slack.streams).toHaveLength(0);
    expect(bot.slack.callsTo("chat.appendStream")).toHaveLength(0);
    expect(postsOf(bot, "fini")).toHaveLength(1);

    // The next turn goes straight to the status message: the refusal is remembered for the workspace.
    bot.model.enqueue({ kind: "text", text: "encore" });
    await bot.command("ask demo encore");
    await eventually(() => postsOf(bot, "encore").length > 0, 60_000, "the second answer");
    expect(bot.slack.callsTo("chat.startStream")).toHaveLength(1);
  }, 150_000);

  it("falls back to the status message when a stream expires mid-turn", async () => {
    bot = await slackBot({ streaming: true });
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "sleep 2; echo step-1"] },
      { kind: "shell", command: ["sh", "-c", "sleep 3; echo step-2"] },
      { kind: "text", text: "fini" },
    );
    await bot.command("ask demo flux expiré");
    const stream = await eventually(() => bot.slack.streams[0], 60_000, "a stream");
    await eventually(
      () => chunksOf(stream).some((c) => String(c.title ?? "").includes("step-1")),
      60_000,
      "step-1 in the stream",
    );
    const edits = root(bot)?.updates ?? 0;
    bot.slack.expireStreams();
    // step-2 reaches the status message instead (positive control: it was not edited per activity before).
    await eventually(
      () => JSON.stringify(root(bot)?.blocks ?? "").includes("step-2") && bot.model.requests.length === 2,
      60_000,
      "step-2 on the status message while it runs",
    );
    expect(root(bot)?.updates ?? 0).toBeGreaterThan(edits);
    expect(chunksOf(stream).some((c) => String(c.title ?? "").includes("step-2"))).toBe(false);
    await eventually(() => postsOf(bot, "fini").length > 0, 60_000, "the answer");
    expect(postsOf(bot, "fini")).toHaveLength(1);
  }, 150_000);

  it("coalesces appends while Slack rate-limits them, and still ends the turn with its answer once", async () => {
    bot = await slackBot({ streaming: true });
    bot.model.enqueue(
      // The stream opens at the first activity (S-QUIET-03): step-1 lasts long enough to open it.
      { kind: "shell", command: ["sh", "-c", "sleep 2; echo step-1"] },
      { kind: "shell", command: ["sh", "-c", "sleep 1; echo step-2"] },
      { kind: "shell", command: ["sh", "-c", "sleep 6; echo step-3"] },
      { kind: "text", text: "fini" },
    );
    // The first append (step-2's) answers 429 with Retry-After: 4 s; step-2 (1 s) comes and goes meanwhile.
    bot.slack.failNext("chat.appendStream", { status: 429, retryAfter: 4 });
    await bot.command("ask demo limité");
    await eventually(() => postsOf(bot, "fini").length > 0, 90_000, "the answer");
    const appends = bot.slack.callsTo("chat.appendStream");
    const limited = appends.filter((c) => c.status === 429);
    const accepted = appends.filter((c) => c.ok === true);
    expect(limited).toHaveLength(1);
    expect(accepted.length).toBeGreaterThan(0);
    // Each retry waited for Slack's Retry-After (the whole stream's budget paused, not a busy loop).
    for (let i = 1; i < appends.length; i++)
      if (appends[i - 1]?.status === 429)
        expect((appends[i]?.at ?? 0) - (appends[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(3_900);
    // Coalesced: the append that went through carried the newest state (step-3), not a queue of the
    // activities that came and went while Slack said to wait.
    const stream = bot.slack.streams[0] as FakeSlackStream;
    const titles = chunksOf(stream).map((c) => String(c.title ?? ""));
    expect(titles.some((t) => t.includes("step-3"))).toBe(true);
    expect(titles.some((t) => t.includes("step-2"))).toBe(false);
    expect(stream.calls.filter((c) => c.method === "chat.appendStream")).toHaveLength(accepted.length);
    expect(stream.calls.at(-1)?.method).toBe("chat.stopStream");
    expect(postsOf(bot, "fini")).toHaveLength(1);
  }, 150_000);

  it("posts the agent's interim messages in the thread at most once per N seconds, never its answer", async () => {
    bot = await slackBot({ env: { CODEXPI_INTERIM_SECONDS: "2" } });
    bot.model.enqueue(
      { kind: "shell", command: ["sh", "-c", "sleep 3; echo step-1"], say: "Premier point." },
      { kind: "shell", command: ["sh", "-c", "echo step-2"], say: "Deuxième point." },
      { kind: "shell", command: ["sh", "-c", "sleep 3; echo step-3"], say: "Troisième point." },
      { kind: "text", text: "fini" },
    );
    await bot.command("ask demo messages intermédiaires");
    await eventually(() => postsOf(bot, "fini").length > 0, 90_000, "the answer");
    const status = root(bot);
    const interim = bot.slack
      .callsTo("chat.postMessage")
      .filter(
        (c) =>
          c.ok &&
          c.args.thread_ts === status?.ts &&
          JSON.stringify(c.args.blocks).includes("Message intermédiaire"),
      );
    // Positive control: a long turn's interim message does reach the thread.
    expect(interim.length).toBeGreaterThan(0);
    const texts = interim.map((c) => String(c.args.text));
    expect(texts).toContain("Premier point.");
    expect(texts).not.toContain("fini");
    expect(new Set(texts).size).toBe(texts.length);
    for (let i = 1; i < interim.length; i++)
      expect((interim[i]?.at ?? 0) - (interim[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
    expect(postsOf(bot, "fini")).toHaveLength(1);
  }, 150_000);
});
