import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/engine/codex/appServer/approvalTypes.js";
import { approvalHandler } from "../../src/engine/approvals/waiter.js";
import { recordingSpawner, type RecordingSpawner } from "../support/engine.js";
import { ADMIN, OTHER, OWNER, eventually, slackBot } from "../support/slackBot.js";

// The conversation's state message while an approval waits, through the real Bolt app and notifier
// against the fake Slack. The runner's side is played by the test (the engine's real approval
// handler, for a turn that stays running in a stand-in worker), as in approvals.test.ts.

const command: ApprovalRequest = {
  kind: "command",
  threadId: "thread-1",
  turnId: "turn-1",
  itemId: "item-1",
  approvalId: null,
  command: "npm install --save left-pad",
  cwd: "/srv/demo",
  reason: "needs the network",
  diff: null,
  files: [],
};

describe("a conversation waiting for an approval", () => {
  let bot: Awaited<ReturnType<typeof slackBot>>;
  let spawner: RecordingSpawner;
  const aborts: AbortController[] = [];
  afterEach(async () => {
    for (const a of aborts.splice(0)) a.abort();
    spawner?.killAll();
    await bot?.close();
  });

  const rootNow = (ts: string) => bot.slack.messages("C1").find((m) => m.ts === ts);

  it("says ⏸ waiting for approval with a link to the card while it is pending, and running again once answered", async () => {
    spawner = recordingSpawner();
    bot = await slackBot({ spawner: () => spawner });
    await bot.command("ask demo installe left-pad");
    const root = await eventually(
      () => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      30_000,
      "thread root",
    );
    const item = await eventually(
      () => bot.db.selectFrom("prompt_queue").selectAll().where("status", "=", "running").executeTakeFirst(),
      15_000,
      "running item",
    );
    // Control: running, not waiting, before anything is asked.
    await eventually(() => (rootNow(root.ts)?.text.startsWith("⚙️") ? true : undefined), 15_000, "running");
    expect(JSON.stringify(rootNow(root.ts)?.blocks)).not.toContain("En attente d’approbation");

    const abort = new AbortController();
    aborts.push(abort);
    const decision = approvalHandler(bot.bot.engine, {
      conversationId: item.conversation_id,
      queueId: item.id,
      attempt: item.attempt,
    })(command, abort.signal);
    const card = await eventually(
      () =>
        bot.slack
          .thread("C1", root.ts)
          .find((m) => m.ts !== root.ts && JSON.stringify(m.blocks ?? []).includes("approval.approve")),
      15_000,
      "approval card",
    );
    const cardLink = `https://fake.slack.test/archives/C1/p${card.ts.replace(".", "")}`;
    const waiting = await eventually(
      () => {
        const r = rootNow(root.ts);
        return JSON.stringify(r?.blocks).includes(`<${cardLink}|voir la demande>`) ? r : undefined;
      },
      30_000,
      "the status linking to the approval card",
    );
    expect(JSON.stringify(waiting.blocks)).toContain("⏸ En attente d’approbation");
    expect(waiting.text.startsWith("⏸")).toBe(true);

    const approval = await bot.db.selectFrom("approvals").select("id").executeTakeFirstOrThrow();
    await bot.click("approval.approve", approval.id, card.ts, OWNER);
    expect(await decision).toBe("accept");
    const running = await eventually(
      () => {
        const r = rootNow(root.ts);
        return r && !JSON.stringify(r.blocks).includes("En attente d’approbation") ? r : undefined;
      },
      30_000,
      "the status running again",
    );
    expect(running.text.startsWith("⚙️")).toBe(true);
  });

  it("/codex decisions and App Home list a pending approval, with its command and a link to its card, to those who may answer it only; answered, it leaves the list", async () => {
    spawner = recordingSpawner();
    bot = await slackBot({ spawner: () => spawner });
    await bot.command("ask demo installe left-pad");
    const root = await eventually(
      () => bot.slack.messages("C1").find((m) => !m.thread_ts || m.thread_ts === m.ts),
      30_000,
      "thread root",
    );
    const item = await eventually(
      () => bot.db.selectFrom("prompt_queue").selectAll().where("status", "=", "running").executeTakeFirst(),
      15_000,
      "running item",
    );
    const listed = async (user: string) =>
      JSON.stringify(await bot.response((await bot.command("decisions", user)).responseId));
    // Control: nothing pending yet.
    expect(await listed(OWNER)).toMatch(/aucune décision/i);

    const abort = new AbortController();
    aborts.push(abort);
    const decision = approvalHandler(bot.bot.engine, {
      conversationId: item.conversation_id,
      queueId: item.id,
      attempt: item.attempt,
    })(command, abort.signal);
    const card = await eventually(
      () =>
        bot.slack
          .thread("C1", root.ts)
          .find((m) => m.ts !== root.ts && JSON.stringify(m.blocks ?? []).includes("approval.approve")),
      15_000,
      "approval card",
    );
    const cardLink = `https://fake.slack.test/archives/C1/p${card.ts.replace(".", "")}`;
    const mine = await listed(OWNER);
    expect(mine).toContain("Décisions en attente (0) et approbations (1)");
    expect(mine).toContain("npm install --save left-pad");
    expect(mine).toContain(`<${cardLink}|voir la demande>`);
    expect(await listed(ADMIN)).toContain("npm install --save left-pad");
    // Someone who may not answer it does not see it listed.
    const other = await listed(OTHER);
    expect(other).not.toContain("left-pad");
    expect(other).toMatch(/aucune décision/i);

    await bot.event({ type: "app_home_opened", user: OWNER, channel: "DHOME", tab: "home" });
    const home = await eventually(
      () => bot.slack.views.find((v) => v.method === "views.publish" && v.user_id === OWNER),
      15_000,
      "App Home",
    );
    expect(JSON.stringify(home)).toContain("npm install --save left-pad");
    expect(JSON.stringify(home)).toContain(`<${cardLink}|voir la demande>`);

    const approval = await bot.db.selectFrom("approvals").select("id").executeTakeFirstOrThrow();
    await bot.click("approval.approve", approval.id, card.ts, OWNER);
    expect(await decision).toBe("accept");
    expect(await listed(OWNER)).not.toContain("left-pad");
  });
});
